// Who an IdP's person becomes, and their place in the organization (issue 43, "Who signs in";
// docs/decisions/070-sso-connections.md). The linked identity (connection + `sub`) signs its user in. Otherwise the
// address must lie in the connection's proven domains — an IdP's admin can type any address, so a connection speaks
// for its own domains only — and then: no account → a new one, verified (the proven domain vouches for its
// addresses); a verified account → the identity joins it (a new way in: event and mail, ADR 030/048); a never-proven
// account → the proof claims it through the one claim module (ADR 028). Banned accounts get nothing.
import { newId } from "~/auth/core/crypto.server";
import { normalizeEmail } from "~/auth/core/email-address";
import { proveInbox } from "~/auth/account/claim.server";
import { isBanned } from "~/auth/admin/bans.server";
import type { RequestContext } from "~/auth/request-context.server";
import { cleanName, isSafeImageUrl } from "~/auth/schemas";
import { recordSecurityEvent } from "~/auth/security-events/record.server";
import { lockOrganizationRow } from "~/auth/sso/access.server";
import { SsoCallbackError, type SsoProfile } from "~/auth/sso/oidc-client.server";
import { db, isUniqueViolation, type Transaction, type User } from "~/db.server";
import { env } from "~/env.server";
import type { SsoProvider } from "~/generated/prisma-sqlite/client";
import { metrics } from "~/observability/metrics.server";

/** Whether the address's domain is one of the connection's domains or a subdomain of one. */
export function domainMatches(email: string, domains: string): boolean {
  const host = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
  return domains.split(",").some((domain) => host === domain || host.endsWith(`.${domain}`));
}

const providerName = (provider: SsoProvider) => `Single sign-on (${provider.providerId})`;

function refuseBanned(user: User): void {
  if (isBanned(user)) throw new SsoCallbackError("banned");
}

export async function resolveSsoIdentity(ctx: RequestContext, provider: SsoProvider, profile: SsoProfile): Promise<{ user: User; isNew: boolean }> {
  const linked = await db.account.findUnique({
    where: { providerId_accountId: { providerId: provider.providerId, accountId: profile.sub } },
    include: { user: true },
  });
  if (linked) {
    refuseBanned(linked.user);
    return { user: linked.user, isNew: false };
  }
  if (!profile.email) throw new SsoCallbackError("email_not_found");
  const email = normalizeEmail(profile.email);
  // Nothing is created or linked for an address the connection's proven domains do not cover.
  if (!provider.domainVerified || !domainMatches(email, provider.domain)) throw new SsoCallbackError("email_domain_mismatch");
  const existing = await db.user.findUnique({ where: { email } });
  if (!existing) return createUser(provider, profile, email);
  refuseBanned(existing);
  const link = async (tx: Transaction) => {
    await tx.account.create({ data: { userId: existing.id, providerId: provider.providerId, accountId: profile.sub } });
    // Joined by its address at sign-in: a new way in, so the owner hears of it once this commits (ADR 030, 048).
    await recordSecurityEvent(tx, { userId: existing.id, type: "account_linked", ctx, details: { provider: provider.providerId, providerName: providerName(provider), byAddress: true } });
  };
  try {
    const user = existing.emailVerified ? await db.$transaction(async (tx) => (await link(tx), existing)) : (await proveInbox(ctx, existing.id, email, link)).user;
    return { user, isNew: false };
  } catch (error) {
    if (isUniqueViolation(error)) {
      // The same identity arriving twice at once: one link is made, and it signs in.
      const again = await db.account.findUnique({ where: { providerId_accountId: { providerId: provider.providerId, accountId: profile.sub } }, include: { user: true } });
      if (again) return { user: again.user, isNew: false };
    }
    throw error;
  }
}

async function createUser(provider: SsoProvider, profile: SsoProfile, email: string): Promise<{ user: User; isNew: boolean }> {
  try {
    const user = await db.user.create({
      data: {
        id: newId(),
        name: cleanName(profile.name || email.split("@")[0]),
        email,
        // The connection's proven domain vouches for the address (as Clerk holds; Better Auth leaves it false).
        emailVerified: true,
        inboxProvenAt: new Date(),
        image: profile.image && isSafeImageUrl(profile.image) ? profile.image : null,
        accounts: { create: { providerId: provider.providerId, accountId: profile.sub } },
      },
    });
    metrics.signUp("social");
    return { user, isNew: true };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Two first sign-ins at once, or an account made with the address meanwhile: decide again from the rows.
    const again = await db.account.findUnique({ where: { providerId_accountId: { providerId: provider.providerId, accountId: profile.sub } }, include: { user: true } });
    if (again) return { user: again.user, isNew: false };
    throw new SsoCallbackError("unable_to_create_user");
  }
}

/**
 * Every sign-in through an organization's connection makes the person a member: with their pending invitation's
 * role when they hold one (it is accepted now), else SSO_DEFAULT_ROLE. A member keeps their role. Someone removed
 * comes back at their next sign-in: the IdP is the source of truth.
 */
export async function joinOrganization(provider: SsoProvider, user: User): Promise<void> {
  const organizationId = provider.organizationId;
  if (await db.member.findUnique({ where: { organizationId_userId: { organizationId, userId: user.id } }, select: { id: true } })) return;
  try {
    await db.$transaction(async (tx) => {
      await lockOrganizationRow(tx, organizationId);
      if (await tx.member.findUnique({ where: { organizationId_userId: { organizationId, userId: user.id } }, select: { id: true } })) return;
      const invitation = await tx.invitation.findFirst({
        where: { organizationId, email: user.email, status: "pending", expiresAt: { gt: new Date() } },
        orderBy: { createdAt: "desc" },
      });
      if (invitation) await tx.invitation.updateMany({ where: { id: invitation.id, status: "pending" }, data: { status: "accepted" } });
      await tx.member.create({ data: { organizationId, userId: user.id, role: invitation?.role ?? env.SSO_DEFAULT_ROLE } });
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error; // joined by a concurrent sign-in
  }
}
