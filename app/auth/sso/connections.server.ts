// An organization's enterprise sign-in connections (docs/decisions/070-sso-connections.md): registering one, the
// lists its owners and admins see, and removing one. Only an organization's owners and admins manage its
// connections; every connection belongs to an organization. Client secrets are stored encrypted and never answered.
import { encrypt } from "~/auth/core/crypto.server";
import { AuthError } from "~/auth/errors";
import { canManage, lockOrganizationRow, managedOrganizationIds, requireConnectionAdmin, roleIn } from "~/auth/sso/access.server";
import { TX_OPTIONS } from "~/auth/organization/access.server";
import type { SessionWithUser } from "~/auth/session/sessions.server";
import { SOCIAL_PROVIDER_IDS } from "~/auth/social/provider-ids";
import { discoverEndpoints } from "~/auth/sso/discovery.server";
import { forgetDomainToken, issueDomainToken } from "~/auth/sso/domains.server";
import { endConnectionIdentities } from "~/auth/sso/identities.server";
import { recordConnectionEvent } from "~/auth/sso/events.server";
import type { RequestContext } from "~/auth/request-context.server";
import { presentProvider, presentRegistered, type StoredOidcConfig } from "~/auth/sso/presenters.server";
import type { RegisterInput } from "~/auth/sso/schemas";
import { samlConfigFrom } from "~/auth/sso/saml-config.server";
import { db, isUniqueViolation } from "~/db.server";
import { env } from "~/env.server";

/** Ids another way in already uses in the `account` table, which SSO identities share. */
function isReserved(providerId: string): boolean {
  const id = providerId.toLowerCase();
  return id === "credential" || id === "email-otp" || id === "oidc" || id === env.social.oidc?.id.toLowerCase() || (SOCIAL_PROVIDER_IDS as readonly string[]).includes(id);
}

/** POST /sso/register. */
export async function registerConnection(current: SessionWithUser, input: RegisterInput, ctx?: RequestContext) {
  if (!input.organizationId) throw new AuthError("ORGANIZATIONID_IS_REQUIRED");
  const organizationId = input.organizationId;
  const role = await roleIn(organizationId, current.user.id);
  if (!role) throw new AuthError("YOU_ARE_NOT_A_MEMBER_OF_THE_ORGANIZATION");
  if (!canManage(role)) throw new AuthError("YOU_MUST_BE_AN_ORGANIZATION_OWNER_OR_ADMIN_TO_REGISTER_SSO_PROVIDERS");
  if (isReserved(input.providerId)) throw new AuthError("SSO_PROVIDER_WITH_THIS_PROVIDERID_ALREADY_EXISTS");
  if (input.oidcConfig && input.samlConfig) throw new AuthError("INVALID_SSO_CONFIGURATION", { message: "Give oidcConfig or samlConfig, not both" });
  if (!input.oidcConfig && !input.samlConfig) throw new AuthError("INVALID_SSO_CONFIGURATION", { message: "oidcConfig or samlConfig is required" });
  let config: { oidcConfig: string } | { samlConfig: string };
  if (input.oidcConfig) {
    // Before anything is written, and outside the transaction: a slow IdP must not hold the organization's lock.
    const endpoints = await discoverEndpoints(input.issuer, input.oidcConfig);
    const oidcConfig: StoredOidcConfig = {
      clientId: input.oidcConfig.clientId,
      clientSecret: encrypt(input.oidcConfig.clientSecret),
      ...endpoints,
      scopes: input.oidcConfig.scopes ?? ["openid", "email", "profile"],
      pkce: input.oidcConfig.pkce ?? true,
      ...(input.oidcConfig.mapping ? { mapping: input.oidcConfig.mapping } : {}),
    };
    config = { oidcConfig: JSON.stringify(oidcConfig) };
  } else {
    // SAML: `issuer` is our service-provider entity ID; nothing is fetched from the IdP.
    config = { samlConfig: JSON.stringify(samlConfigFrom(input.samlConfig!)) };
  }
  try {
    const { provider, token } = await db.$transaction(async (tx) => {
      await lockOrganizationRow(tx, organizationId);
      if ((await tx.ssoProvider.count({ where: { organizationId } })) >= env.SSO_PROVIDERS_LIMIT) {
        throw new AuthError("YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_SSO_PROVIDERS");
      }
      // Identities an earlier connection of this id may have left (one linked while its organization was being
      // deleted): never inherited by a new IdP whose `sub`s could collide with them.
      await endConnectionIdentities(tx, [input.providerId]);
      const provider = await tx.ssoProvider.create({
        data: { providerId: input.providerId, issuer: input.issuer, domain: input.domain, organizationId, userId: current.user.id, ...config },
      });
      await recordConnectionEvent(tx, "sso_connection_added", current, provider, ctx);
      return { provider, token: await issueDomainToken(tx, provider.providerId) };
    }, TX_OPTIONS);
    return presentRegistered(provider, token);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AuthError("SSO_PROVIDER_WITH_THIS_PROVIDERID_ALREADY_EXISTS");
    throw error;
  }
}

/** GET /sso/providers. */
export async function listConnections(current: SessionWithUser, organizationId?: string) {
  const managed = await managedOrganizationIds(current.user.id);
  const ids = organizationId ? managed.filter((id) => id === organizationId) : managed;
  const providers = ids.length ? await db.ssoProvider.findMany({ where: { organizationId: { in: ids } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }) : [];
  return { providers: providers.map(presentProvider) };
}

/** GET /sso/get-provider. */
export async function getConnection(current: SessionWithUser, providerId: string) {
  return presentProvider(await requireConnectionAdmin(current, providerId));
}

/**
 * POST /sso/delete-provider: the connection, its pending domain token and the identities linked through it go
 * together; people keep their accounts and memberships. Sign-in through it is 404 afterwards.
 */
export async function deleteConnection(current: SessionWithUser, providerId: string, ctx?: RequestContext) {
  const provider = await requireConnectionAdmin(current, providerId);
  await db.$transaction(async (tx) => {
    await endConnectionIdentities(tx, [provider.providerId]);
    await forgetDomainToken(tx, provider.providerId);
    const { count } = await tx.ssoProvider.deleteMany({ where: { id: provider.id } });
    if (count > 0) await recordConnectionEvent(tx, "sso_connection_removed", current, provider, ctx);
  });
  return { success: true };
}
