// A ban is checked where sessions start (docs/decisions/049-administration.md): at the first-factor door, so a
// banned person hears it before any second step, and again in startSession itself, after the row is written, so
// no door added later and no sign-in racing the ban leaves a banned user with a session.
import { AuthError } from "~/auth/errors";
import { promoteIfConfigured } from "~/auth/admin/bootstrap.server";
import { db, type User } from "~/db.server";

type BanState = Pick<User, "banned" | "banExpires">;

/** Banned now: a ban with an end that has passed counts as no ban (it ends by itself). */
export function isBanned(user: BanState, now = Date.now()): boolean {
  return user.banned && (user.banExpires === null || user.banExpires.getTime() > now);
}

/** A ban that has ended by itself is cleared at the account's next sign-in (only if still that same ban). */
async function clearEndedBan(userId: string, user: BanState): Promise<void> {
  if (!user.banned || !user.banExpires) return;
  await db.user.updateMany({ where: { id: userId, banned: true, banExpires: user.banExpires }, data: { banned: false, banReason: null, banExpires: null } });
}

/** BANNED_USER for a banned user (from the row as read by the caller); an ended ban is cleared. */
export async function refuseBannedUser(user: User): Promise<void> {
  if (isBanned(user)) throw new AuthError("BANNED_USER");
  await clearEndedBan(user.id, user);
}

/**
 * At every session start, against the row as it is now (after the session was written, for a ban that came
 * meanwhile): whether the user is banned; if not, an AUTH_ADMIN_EMAILS account is promoted (bootstrap.server.ts).
 */
export async function isBannedNow(userId: string): Promise<boolean> {
  const row = await db.user.findUnique({ where: { id: userId }, select: { id: true, email: true, emailVerified: true, role: true, banned: true, banExpires: true } });
  if (row === null) return false;
  if (isBanned(row)) return true;
  await promoteIfConfigured(row);
  return false;
}
