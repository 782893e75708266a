// A ban is checked where sessions start (docs/decisions/049-administration.md): at the first-factor door, so a
// banned person hears it before any second step, and again in startSession's transaction under the user's row
// lock, so no door added later and no sign-in racing the ban leaves a banned user with a session.
import { AuthError } from "~/auth/errors";
import type { Standing } from "~/auth/admin/bootstrap.server";
import { databaseKind, db, type Transaction, type User } from "~/db.server";

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

/** What a session start reads under the user row's lock: the standing (for promotion) and the credentials version. */
export type LockedStanding = Standing & Pick<User, "credentialsVersion">;

/**
 * At every session start, first thing in its transaction: the user's row locked, then read. BANNED_USER (nothing
 * is written) when banned now; else the row, for AUTH_ADMIN_EMAILS promotion after the commit and for the
 * credentials version the caller compares (ADR 055); null when the account is gone. A ban or any revocation
 * locks the same row before it ends the user's sessions, so the two take turns: one that came first is seen here,
 * and one that comes after finds this session and ends it. Locked before the session's insert, whose foreign key
 * would otherwise hold a share lock that two sign-ins at once would each wait on. On SQLite a write takes the
 * database's one write lock at once (a deferred transaction that only read could be overtaken).
 */
export async function refuseBannedInTransaction(tx: Transaction, userId: string): Promise<LockedStanding | null> {
  if (databaseKind === "postgres") await tx.$queryRawUnsafe<unknown[]>(`SELECT "id" FROM "user" WHERE "id" = $1 FOR UPDATE`, userId);
  else await tx.$executeRawUnsafe(`UPDATE "user" SET "id" = "id" WHERE "id" = ?`, userId);
  const row = await tx.user.findUnique({
    where: { id: userId },
    select: { id: true, email: true, emailVerified: true, role: true, banned: true, banExpires: true, credentialsVersion: true },
  });
  if (row && isBanned(row)) throw new AuthError("BANNED_USER");
  return row;
}
