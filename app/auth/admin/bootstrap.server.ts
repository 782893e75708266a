// Who becomes an admin without an admin (docs/decisions/049-administration.md): the accounts AUTH_ADMIN_EMAILS
// names, once their address is verified — anyone can sign up with any address, so an unverified one is never
// promoted. Checked where the address is verified (every proof of the inbox, claim.server.ts), where every session
// starts (sign-in, sign-up, the verification link's sign-in: all pass startSession) and once at start-up for accounts verified before the setting named them; and by an operator
// with `npm run admin -- grant|revoke EMAIL` (scripts/admin.mjs), which calls grantAdmin/revokeAdmin.
import { isAdminRole, rolesOf } from "~/auth/admin/permissions";
import { recordSecurityEvent } from "~/auth/security-events/record.server";
import { db, type Transaction, type User } from "~/db.server";
import { env } from "~/env.server";

export type Standing = Pick<User, "id" | "email" | "emailVerified" | "role">;

const withAdmin = (role: string) => [...rolesOf(role).filter((r) => r !== "user"), "admin"].join(",");
const withoutAdmin = (role: string) => rolesOf(role).filter((r) => r !== "admin").join(",") || "user";

export function isConfiguredAdmin(user: Pick<User, "email" | "emailVerified">): boolean {
  return user.emailVerified && env.AUTH_ADMIN_EMAILS.includes(user.email);
}

/**
 * Makes a verified, configured account an admin (once: the update is conditional on the role read). With `tx`,
 * inside that transaction: the proof that verifies the address promotes it in the same commit (issue 41), so
 * the first admin is one from the moment their address is verified, not from their next sign-in.
 */
export async function promoteIfConfigured(user: Standing, tx?: Transaction): Promise<boolean> {
  if (!isConfiguredAdmin(user) || isAdminRole(user.role)) return false;
  const role = withAdmin(user.role);
  const promote = async (client: Transaction) => {
    const { count } = await client.user.updateMany({ where: { id: user.id, role: user.role }, data: { role } });
    if (count === 0) return false;
    await recordSecurityEvent(client, { userId: user.id, type: "role_changed", details: { from: user.role, to: role, by: "AUTH_ADMIN_EMAILS" } });
    return true;
  };
  return tx ? promote(tx) : db.$transaction(promote);
}

/** At start-up: the configured accounts that are verified and not yet admins. */
export async function promoteConfiguredAdmins(): Promise<number> {
  if (env.AUTH_ADMIN_EMAILS.length === 0) return 0;
  const users = await db.user.findMany({ where: { email: { in: env.AUTH_ADMIN_EMAILS }, emailVerified: true }, select: { id: true, email: true, emailVerified: true, role: true } });
  let promoted = 0;
  for (const user of users) if (await promoteIfConfigured(user)) promoted++;
  return promoted;
}

export type GrantOutcome = { found: false } | { found: true; changed: boolean; role: string; emailVerified: boolean };

/** The operator's grant and revoke (the CLI): whatever the address's state, since the operator decides. */
export async function setAdminByEmail(email: string, admin: boolean): Promise<GrantOutcome> {
  const user = await db.user.findUnique({ where: { email: email.trim().toLowerCase() } });
  if (!user) return { found: false };
  const role = admin ? withAdmin(user.role) : withoutAdmin(user.role);
  if (isAdminRole(user.role) === admin) return { found: true, changed: false, role: user.role, emailVerified: user.emailVerified };
  await db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { role } });
    await recordSecurityEvent(tx, { userId: user.id, type: "role_changed", details: { from: user.role, to: role, by: "command line" } });
  });
  return { found: true, changed: true, role, emailVerified: user.emailVerified };
}
