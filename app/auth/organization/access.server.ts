// Who is asking, about which organization, and the lock that makes membership changes take turns.
import { AuthError } from "~/auth/errors";
import type { SessionWithUser } from "~/auth/session/sessions.server";
import { databaseKind, db, type Db, type Member, type Prisma, type Transaction } from "~/db.server";
import { OWNER } from "~/auth/organization/permissions";

type Client = Db | Transaction;

/** Transactions that wait for an organization's lock may queue behind a few others (ten parallel accepts). */
export const TX_OPTIONS = { maxWait: 15_000, timeout: 15_000 } as const;

/**
 * Serializes changes to one organization's members and invitations (docs/decisions/015-organizations.md): the
 * rules that count rows ("the only owner", "one pending invitation per address", "the membership limit") are
 * then checked and acted on by one transaction at a time. On PostgreSQL a row lock on the organization; SQLite
 * runs one write transaction at a time anyway.
 */
export async function lockOrganization(tx: Transaction, organizationId: string): Promise<void> {
  if (databaseKind !== "postgres") return;
  const rows = await tx.$queryRawUnsafe<unknown[]>(`SELECT "id" FROM "organization" WHERE "id" = $1 FOR UPDATE`, organizationId);
  if (rows.length === 0) throw new AuthError("ORGANIZATION_NOT_FOUND");
}

/**
 * Serializes one user's organization creates, so that counting their organizations against
 * AUTH_ORGANIZATION_LIMIT and adding the new one are one step (issue 24, item 8). On PostgreSQL a row lock on the
 * user. On SQLite a write comes first: a transaction starts deferred, and one that only read before writing
 * could be overtaken by another process's create; a write takes the database's one write lock at once.
 */
export async function lockUserForCreate(tx: Transaction, userId: string): Promise<void> {
  if (databaseKind === "postgres") {
    await tx.$queryRawUnsafe<unknown[]>(`SELECT "id" FROM "user" WHERE "id" = $1 FOR UPDATE`, userId);
  } else {
    await tx.$executeRawUnsafe(`UPDATE "user" SET "id" = "id" WHERE "id" = ?`, userId);
  }
}

/** The organization a call is about: the one named, else the session's active one. */
export function targetOrganizationId(current: SessionWithUser, organizationId?: string | null): string {
  const id = organizationId ?? current.session.activeOrganizationId;
  if (!id) throw new AuthError("NO_ACTIVE_ORGANIZATION");
  return id;
}

export async function findMember(client: Client, organizationId: string, userId: string): Promise<Member | null> {
  return client.member.findUnique({ where: { organizationId_userId: { organizationId, userId } } });
}

/** The caller's membership, or why there is none (no such organization, or not a member of it). */
export async function requireMember(client: Client, organizationId: string, userId: string): Promise<Member> {
  const member = await findMember(client, organizationId, userId);
  if (member) return member;
  const exists = await client.organization.count({ where: { id: organizationId } });
  throw new AuthError(exists ? "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION" : "ORGANIZATION_NOT_FOUND");
}

/**
 * A condition true for a member whose comma-separated role holds `role` as one of its names (ADR 044): "owner",
 * "owner,admin", "admin,owner", "member,owner,admin" — never "co-owner" or "owners". Roles are stored as
 * `normalizeRole` writes them (known names joined by "," with no spaces), which is what makes four shapes enough.
 */
export function roleHolds(role: string): Prisma.MemberWhereInput {
  return { OR: [{ role }, { role: { startsWith: `${role},` } }, { role: { endsWith: `,${role}` } }, { role: { contains: `,${role},` } }] };
}

/** Inside a transaction, after the lock: how many owners there are besides `exceptMemberId`, counted by the database. */
export async function countOtherOwners(tx: Client, organizationId: string, exceptMemberId: string): Promise<number> {
  return tx.member.count({ where: { organizationId, id: { not: exceptMemberId }, ...roleHolds(OWNER) } });
}

/** A member who leaves or is removed stops having it as their active organization, and its team as their active team. */
export async function unsetActiveOrganization(client: Client, userId: string, organizationId: string): Promise<void> {
  await client.session.updateMany({ where: { userId, activeOrganizationId: organizationId }, data: { activeOrganizationId: null, activeTeamId: null } });
}

/** Sets the session's active organization; its active team goes with the switch unless one is given (ADR 068). */
export async function setActiveOrganizationId(sessionId: string, organizationId: string | null, activeTeamId: string | null = null): Promise<void> {
  await db.session.updateMany({ where: { id: sessionId }, data: { activeOrganizationId: organizationId, activeTeamId } });
}

interface MembershipStanding {
  id: string;
  name: string;
  /** 1/true when the user holds the owner role there (SQLite answers 0/1, PostgreSQL a boolean). */
  isOwner: unknown;
  hasOthers: unknown;
  hasOtherOwner: unknown;
}

/**
 * Before an account goes (issue 9): refused while the user is the only owner of an organization that has other
 * members, naming those organizations. Returns the organizations where the user is the only member. One query
 * (ADR 044): per membership, whether anyone else is there and whether another owner is, each an EXISTS that the
 * (organizationId, …) indexes answer without reading the organization's members into the process.
 */
export async function assertNoOrganizationLeftWithoutOwner(client: Client, userId: string): Promise<string[]> {
  // The four shapes of `roleHolds`, in SQL (OWNER is a constant, not input).
  const holdsOwner = (alias: string) =>
    `(${alias}."role" = '${OWNER}' OR ${alias}."role" LIKE '${OWNER},%' OR ${alias}."role" LIKE '%,${OWNER}' OR ${alias}."role" LIKE '%,${OWNER},%')`;
  const standings = await client.$queryRawUnsafe<MembershipStanding[]>(
    `SELECT o."id" AS "id", o."name" AS "name",
       ${holdsOwner("m")} AS "isOwner",
       EXISTS (SELECT 1 FROM "member" x WHERE x."organizationId" = m."organizationId" AND x."userId" <> m."userId") AS "hasOthers",
       EXISTS (SELECT 1 FROM "member" x WHERE x."organizationId" = m."organizationId" AND x."userId" <> m."userId" AND ${holdsOwner("x")}) AS "hasOtherOwner"
     FROM "member" m JOIN "organization" o ON o."id" = m."organizationId"
     WHERE m."userId" = ${databaseKind === "postgres" ? "$1" : "?"}
     ORDER BY m."createdAt", m."id"`,
    userId,
  );
  const yes = (value: unknown) => value === true || Number(value) === 1;
  const alone = standings.filter((s) => !yes(s.hasOthers)).map((s) => s.id);
  const blocking = standings.filter((s) => yes(s.hasOthers) && yes(s.isOwner) && !yes(s.hasOtherOwner)).map((s) => s.name);
  if (blocking.length) {
    throw new AuthError("YOU_ARE_THE_ONLY_OWNER_OF_AN_ORGANIZATION_WITH_OTHER_MEMBERS", {
      message: `You are the only owner of ${blocking.map((n) => `"${n}"`).join(", ")}, which ${blocking.length === 1 ? "has" : "have"} other members. Make another member an owner or delete ${blocking.length === 1 ? "the organization" : "them"} first.`,
    });
  }
  return alone;
}

/** Inside the transaction that deletes the user: check again, and delete the organizations only they were in. */
export async function settleOrganizationsOfDeletedUser(tx: Transaction, userId: string): Promise<void> {
  // Lock the user's organizations (in one order, so two deletions cannot deadlock): nobody joins, leaves or
  // changes roles in them while this decides.
  const memberships = await tx.member.findMany({ where: { userId }, select: { organizationId: true }, orderBy: { organizationId: "asc" } });
  for (const { organizationId } of memberships) {
    // An organization deleted a moment ago has nothing left to decide about.
    await lockOrganization(tx, organizationId).catch((error) => {
      if (!(error instanceof AuthError)) throw error;
    });
  }
  const alone = await assertNoOrganizationLeftWithoutOwner(tx, userId);
  if (alone.length) await tx.organization.deleteMany({ where: { id: { in: alone } } });
}
