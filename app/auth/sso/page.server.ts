// What /organizations/{slug}/sso shows and does, for the organization's owners and admins (everyone else: null,
// which the page answers with a 404 as for hidden pages). The page's forms call the same functions as the API.
import { AuthError } from "~/auth/errors";
import type { SessionWithUser } from "~/auth/session/sessions.server";
import { canManage, roleIn } from "~/auth/sso/access.server";
import { liveDomainToken, txtRecords } from "~/auth/sso/domains.server";
import { presentProvider, redirectUri, spMetadataUrl } from "~/auth/sso/presenters.server";
import { acsUrl } from "~/auth/sso/saml-config.server";
import { db } from "~/db.server";

/** The organization of the page, if the signed-in person may manage its connections. */
export async function managedOrganization(current: SessionWithUser, slug: string) {
  const organization = await db.organization.findUnique({ where: { slug }, select: { id: true, name: true, slug: true } });
  if (!organization) return null;
  return canManage(await roleIn(organization.id, current.user.id)) ? organization : null;
}

/** The page's connections: each with what the IdP's admin needs and, until proven, the TXT record to create. */
export async function connectionsPage(current: SessionWithUser, slug: string) {
  const organization = await managedOrganization(current, slug);
  if (!organization) return null;
  const rows = await db.ssoProvider.findMany({ where: { organizationId: organization.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  const connections = await Promise.all(
    rows.map(async (row) => {
      const token = row.domainVerified ? null : await liveDomainToken(row.providerId);
      return {
        ...presentProvider(row),
        redirectURI: redirectUri(row.providerId),
        acsUrl: acsUrl(row.providerId),
        metadataUrl: spMetadataUrl(row.providerId),
        records: token ? txtRecords(row.providerId, row.domain, token) : [],
      };
    }),
  );
  return { organization, connections };
}

/** A connection named by a page form must belong to the page's organization. */
export async function assertConnectionOf(organizationId: string, providerId: string): Promise<void> {
  const found = await db.ssoProvider.findUnique({ where: { providerId }, select: { organizationId: true } });
  if (!found || found.organizationId !== organizationId) throw new AuthError("PROVIDER_NOT_FOUND");
}

/** A new SAML connection's service-provider entity ID: its metadata URL, as is usual (it resolves to the metadata). */
export const spEntityIdFor = (providerId: string) => spMetadataUrl(providerId);
