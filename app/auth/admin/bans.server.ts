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
 * would otherwise hold a share lock that two sign-ins at once would each wait on. One statement (issue 39: the quiet sign-in's cost): PostgreSQL reads the row FOR UPDATE; SQLite's transactions
 * begin IMMEDIATE, holding the database's one write lock from their first statement (ADR 053), so a plain read
 * there is already under the lock. Raw SQL, as on the session's other hot paths: a model query costs the
 * query compiler's work on every call.
 */
export async function refuseBannedInTransaction(tx: Transaction, userId: string): Promise<LockedStanding | null> {
  const rows = await tx.$queryRawUnsafe<RawStanding[]>(
    `SELECT "id", "email", "emailVerified", "role", "banned", "banExpires", "credentialsVersion" FROM "user" WHERE "id" = ${databaseKind === "postgres" ? "$1 FOR UPDATE" : "?"}`,
    userId,
  );
  const row = rows[0] ? standingOf(rows[0]) : null;
  if (row && isBanned(row)) throw new AuthError("BANNED_USER");
  return row;
}

type RawStanding = { [K in keyof LockedStanding]: unknown } & { banned: unknown; banExpires: unknown };

/** Raw rows carry SQLite's storage types (0/1, a timestamp); the standing is typed as the model's. */
function standingOf(row: RawStanding): LockedStanding & BanState {
  return {
    id: String(row.id),
    email: String(row.email),
    emailVerified: row.emailVerified === true || Number(row.emailVerified) === 1,
    role: String(row.role),
    banned: row.banned === true || Number(row.banned) === 1,
    banExpires: row.banExpires === null || row.banExpires === undefined ? null : new Date(row.banExpires as string | number | Date),
    credentialsVersion: Number(row.credentialsVersion),
  };
}
