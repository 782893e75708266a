// Reading an organization's own roles for a decision (issue 42, ADR 069). Nothing here caches: every decision reads
// the rows it needs in its own query (inside the change's transaction when there is one), so a role changed a
// moment ago counts at once on every instance, as members' roles always have (ADR 024 caches neither).
import { AuthError } from "~/auth/errors";
import type { Db, OrganizationRole, Transaction } from "~/db.server";
import { env } from "~/env.server";
import { findMember } from "~/auth/organization/access.server";
import { isKnownRole, NO_CUSTOM_ROLES, parseRoles, type CustomRoles, type Permission } from "~/auth/organization/permissions";

type Client = Db | Transaction;

export const customRolesOn = () => env.AUTH_CUSTOM_ROLES === "on";

/** A stored permission (JSON text) as an object; anything unreadable permits nothing. */
export function parsePermission(text: string): Permission {
  try {
    const value: unknown = JSON.parse(text);
    if (!value || typeof value !== "object" || Array.isArray(value)) return {};
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).filter((entry): entry is [string, string[]] =>
        Array.isArray(entry[1]) && entry[1].every((a) => typeof a === "string"),
      ),
    );
  } catch {
    return {};
  }
}

const asMap = (rows: Pick<OrganizationRole, "role" | "permission">[]): CustomRoles => new Map(rows.map((r) => [r.role, parsePermission(r.permission)]));

/**
 * The organization's custom roles among the names in `roles` (comma-separated role strings): one indexed read, and
 * none at all when every name is built-in, so the usual owner/admin/member decisions cost what they always did.
 * With AUTH_CUSTOM_ROLES=off a custom role permits nothing.
 */
export async function customRolesAmong(client: Client, organizationId: string, ...roles: string[]): Promise<CustomRoles> {
  if (!customRolesOn()) return NO_CUSTOM_ROLES;
  const names = [...new Set(roles.flatMap((r) => parseRoles(r)))].filter((name) => !isKnownRole(name));
  if (names.length === 0) return NO_CUSTOM_ROLES;
  const rows = await client.organizationRole.findMany({ where: { organizationId, role: { in: names } }, select: { role: true, permission: true } });
  return asMap(rows);
}

/** Every custom role of the organization (bounded by AUTH_ORGANIZATION_ROLE_LIMIT): what the pages offer. */
export async function allCustomRoles(client: Client, organizationId: string): Promise<CustomRoles> {
  if (!customRolesOn()) return NO_CUSTOM_ROLES;
  const rows = await client.organizationRole.findMany({
    where: { organizationId },
    select: { role: true, permission: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: env.AUTH_ORGANIZATION_ROLE_LIMIT,
  });
  return asMap(rows);
}

/**
 * A role to give (invite-member, update-member-role), as stored: names joined by "," without spaces. Each name
 * must be built-in or one of this organization's custom roles, read with `client` — under the organization's lock,
 * so a role deleted meanwhile is either still here (and its delete then refused) or gone (ROLE_NOT_FOUND).
 */
export async function roleToGive(client: Client, organizationId: string, role: string | readonly string[]): Promise<{ role: string; custom: CustomRoles }> {
  const names = parseRoles(role);
  if (names.length === 0) throw new AuthError("ROLE_NOT_FOUND");
  const custom = await customRolesAmong(client, organizationId, names.join(","));
  if (!names.every((name) => isKnownRole(name) || custom.has(name))) throw new AuthError("ROLE_NOT_FOUND");
  return { role: names.join(","), custom };
}

/** The caller's membership with the custom roles it holds, or 403 as Better Auth's role routes answer. */
export async function requireRoleActor(client: Client, organizationId: string, userId: string) {
  const member = await findMember(client, organizationId, userId);
  if (!member) throw new AuthError("YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");
  return { member, custom: await customRolesAmong(client, organizationId, member.role) };
}

/** Merges two sets of custom roles (the actor's and a target's) for one decision. */
export const mergeCustom = (...sets: CustomRoles[]): CustomRoles => new Map(sets.flatMap((s) => [...s]));
