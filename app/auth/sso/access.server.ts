// Who may manage an organization's enterprise sign-in connections: its owners and admins (issue 43).
import { AuthError, type ErrorName } from "~/auth/errors";
import { parseRoles } from "~/auth/organization/permissions";
import type { SessionWithUser } from "~/auth/session/sessions.server";
import { databaseKind, db, type Transaction } from "~/db.server";

const MANAGING_ROLES = ["owner", "admin"];

export const canManage = (role: string | null | undefined) => Boolean(role) && parseRoles(role!).some((name) => MANAGING_ROLES.includes(name));

export async function roleIn(organizationId: string, userId: string): Promise<string | null> {
  const member = await db.member.findUnique({ where: { organizationId_userId: { organizationId, userId } }, select: { role: true } });
  return member?.role ?? null;
}

/**
 * The connection, if the caller is an owner or admin of its organization: 404 PROVIDER_NOT_FOUND when there is no
 * such connection, `forbidden` otherwise (the routes name Better Auth's code for each).
 */
export async function requireConnectionAdmin(current: SessionWithUser, providerId: string, forbidden: ErrorName = "YOU_DONT_HAVE_ACCESS_TO_THIS_PROVIDER") {
  const provider = await db.ssoProvider.findUnique({ where: { providerId } });
  if (!provider) throw new AuthError("PROVIDER_NOT_FOUND");
  if (!canManage(await roleIn(provider.organizationId, current.user.id))) throw new AuthError(forbidden);
  return provider;
}

/** The organizations where the user is an owner or an admin. */
export async function managedOrganizationIds(userId: string): Promise<string[]> {
  const memberships = await db.member.findMany({ where: { userId }, select: { organizationId: true, role: true }, take: 1000 });
  return memberships.filter((member) => canManage(member.role)).map((member) => member.organizationId);
}


/** Makes one organization's connection changes take turns, so the limit is counted and kept by one at a time. */
export async function lockOrganizationRow(tx: Transaction, organizationId: string): Promise<void> {
  if (databaseKind === "postgres") {
    await tx.$queryRawUnsafe(`SELECT "id" FROM "organization" WHERE "id" = $1 FOR UPDATE`, organizationId);
  } else {
    // A write takes SQLite's one write lock at once (a transaction that only read first could be overtaken).
    await tx.$executeRawUnsafe(`UPDATE "organization" SET "id" = "id" WHERE "id" = ?`, organizationId);
  }
}

