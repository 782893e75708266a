// The queries on the hottest paths, written as SQL through $queryRaw: a session and its user by token (every
// signed-in request), and a user with its password hash by e-mail, and a new session row (every sign-in).
// Prisma's query compiler plans each model query anew: `include` runs two queries (~670 µs here for the session
// read, ~2 ms for the sign-in lookup) and `create` ~1 ms, where one parameterized statement takes 120–300 µs.
// Raw rows come back in each database's own types (SQLite: ISO text and 0/1), so they are mapped to exactly
// the objects Prisma would return — tests/unit/session-store.suite.ts compares the two on both databases, and
// fails if a column is added to either table without being added here.
import { newId } from "~/auth/core/crypto.server";
import { db, Prisma, type Db, type Session, type Transaction, type User } from "~/db.server";

interface Row {
  s_id: string;
  s_userId: string;
  s_token: string;
  s_expiresAt: unknown;
  s_createdAt: unknown;
  s_updatedAt: unknown;
  s_ipAddress: string | null;
  s_userAgent: string | null;
  s_rememberMe: unknown;
  s_activeOrganizationId: string | null;
  s_activeTeamId: string | null;
  s_impersonatedBy: string | null;
  s_verifiedAt: unknown;
  u_id: string;
  u_name: string;
  u_email: string;
  u_emailVerified: unknown;
  u_image: string | null;
  u_username: string | null;
  u_displayUsername: string | null;
  u_twoFactorEnabled: unknown;
  u_inboxProvenAt: unknown;
  u_role: string;
  u_banned: unknown;
  u_banReason: string | null;
  u_banExpires: unknown;
  u_createdAt: unknown;
  u_updatedAt: unknown;
  u_credentialsVersion: unknown;
  u_locale: unknown;
}

const toDate = (value: unknown) => (value instanceof Date ? value : new Date(value as string | number));
const toBoolean = (value: unknown) => value === true || value === 1 || value === 1n || value === "1" || value === "true";

/** Every user column, aliased `u_…`, for a query whose user table is `u`. */
const USER_COLUMNS = Prisma.raw(
  `u."id" AS "u_id", u."name" AS "u_name", u."email" AS "u_email", u."emailVerified" AS "u_emailVerified",
   u."image" AS "u_image", u."username" AS "u_username", u."displayUsername" AS "u_displayUsername",
   u."twoFactorEnabled" AS "u_twoFactorEnabled", u."inboxProvenAt" AS "u_inboxProvenAt",
   u."role" AS "u_role", u."banned" AS "u_banned", u."banReason" AS "u_banReason", u."banExpires" AS "u_banExpires", u."createdAt" AS "u_createdAt", u."updatedAt" AS "u_updatedAt",
   u."credentialsVersion" AS "u_credentialsVersion", u."locale" AS "u_locale"`,
);
type UserRow = Pick<Row, Extract<keyof Row, `u_${string}`>>;

function userFromRow(row: UserRow): User {
  return {
    id: row.u_id,
    name: row.u_name,
    email: row.u_email,
    emailVerified: toBoolean(row.u_emailVerified),
    image: row.u_image,
    username: row.u_username,
    displayUsername: row.u_displayUsername,
    twoFactorEnabled: toBoolean(row.u_twoFactorEnabled),
    inboxProvenAt: row.u_inboxProvenAt === null || row.u_inboxProvenAt === undefined ? null : toDate(row.u_inboxProvenAt),
    role: row.u_role,
    banned: toBoolean(row.u_banned),
    banReason: row.u_banReason,
    banExpires: row.u_banExpires === null || row.u_banExpires === undefined ? null : toDate(row.u_banExpires),
    createdAt: toDate(row.u_createdAt),
    updatedAt: toDate(row.u_updatedAt),
    credentialsVersion: Number(row.u_credentialsVersion),
    locale: (row.u_locale as string | null | undefined) ?? null,
  };
}

export async function findSessionWithUser(token: string): Promise<{ session: Session; user: User } | null> {
  const rows = await db.$queryRaw<Row[]>`
    SELECT s."id" AS "s_id", s."userId" AS "s_userId", s."token" AS "s_token", s."expiresAt" AS "s_expiresAt",
           s."createdAt" AS "s_createdAt", s."updatedAt" AS "s_updatedAt", s."ipAddress" AS "s_ipAddress",
           s."userAgent" AS "s_userAgent", s."rememberMe" AS "s_rememberMe", s."activeOrganizationId" AS "s_activeOrganizationId",
           s."activeTeamId" AS "s_activeTeamId",
           s."impersonatedBy" AS "s_impersonatedBy", s."verifiedAt" AS "s_verifiedAt",
           ${USER_COLUMNS}
    FROM "session" s JOIN "user" u ON u."id" = s."userId"
    WHERE s."token" = ${token}`;
  const row = rows[0];
  if (!row) return null;
  return {
    session: {
      id: row.s_id,
      userId: row.s_userId,
      token: row.s_token,
      expiresAt: toDate(row.s_expiresAt),
      createdAt: toDate(row.s_createdAt),
      updatedAt: toDate(row.s_updatedAt),
      ipAddress: row.s_ipAddress,
      userAgent: row.s_userAgent,
      rememberMe: toBoolean(row.s_rememberMe),
      activeOrganizationId: row.s_activeOrganizationId,
      activeTeamId: row.s_activeTeamId,
      impersonatedBy: row.s_impersonatedBy,
      verifiedAt: row.s_verifiedAt === null ? null : toDate(row.s_verifiedAt),
    },
    user: userFromRow(row),
  };
}

/**
 * A user by (normalized) e-mail with the hash of its password account, if it has one: what sign-in checks. One
 * statement, so the user's credentials version is the one that went with this hash (ADR 055).
 */
export async function findUserWithPasswordHash(
  email: string,
  providerId: string,
  deviceHash: string | null = null,
): Promise<{ user: User; passwordHash: string | null; knownDevice: boolean } | null> {
  // In the same query: whether the browser's device cookie is one of the account's known devices (ADR 057).
  const rows = await db.$queryRaw<Array<UserRow & { a_password: string | null; d_known: number | bigint | boolean }>>`
    SELECT ${USER_COLUMNS}, a."password" AS "a_password",
      CASE WHEN EXISTS (SELECT 1 FROM "knownDevice" d WHERE d."userId" = u."id" AND d."deviceHash" = ${deviceHash ?? ""}) THEN 1 ELSE 0 END AS "d_known"
    FROM "user" u LEFT JOIN "account" a ON a."userId" = u."id" AND a."providerId" = ${providerId}
    WHERE u."email" = ${email}
    LIMIT 1`;
  const row = rows[0];
  return row ? { user: userFromRow(row), passwordHash: row.a_password, knownDevice: deviceHash !== null && Number(row.d_known) === 1 } : null;
}

export interface NewSession {
  userId: string;
  token: string;
  expiresAt: Date;
  rememberMe: boolean;
  ipAddress: string | null;
  userAgent: string | null;
  /** When the user signed in; now unless the session replaces one without a new sign-in (ADR 030). */
  createdAt?: Date;
  /** The admin acting as the user (an impersonation session, ADR 049). */
  impersonatedBy?: string | null;
  /** The replaced session's last confirmation (ADR 059), when this one replaces it without a new sign-in. */
  verifiedAt?: Date | null;
}

/** Inserts a session row and returns it as Prisma's `session.create` would (a new session is in no cache). */
export async function insertSession(data: NewSession, tx: Transaction | Db = db): Promise<Session> {
  // Millisecond precision, as both databases keep it, so the object equals the row read back.
  const now = new Date(Date.now());
  const { createdAt = now, impersonatedBy = null, verifiedAt = null, ...fields } = data;
  const session: Session = { id: newId(), ...fields, createdAt, updatedAt: now, activeOrganizationId: null, activeTeamId: null, impersonatedBy, verifiedAt };
  await tx.$executeRaw`
    INSERT INTO "session" ("id", "userId", "token", "expiresAt", "createdAt", "updatedAt", "ipAddress", "userAgent", "rememberMe", "impersonatedBy", "verifiedAt")
    VALUES (${session.id}, ${session.userId}, ${session.token}, ${session.expiresAt}, ${createdAt}, ${now}, ${session.ipAddress}, ${session.userAgent}, ${session.rememberMe}, ${impersonatedBy}, ${verifiedAt})`;
  return session;
}
