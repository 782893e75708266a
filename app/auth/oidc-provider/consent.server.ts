// Remembered consent: a person's "Allow" for an application, per person, application and scopes. The provider's
// Grant holds what was allowed; the row here finds it again the next time the application asks (the provider's
// `loadExistingGrant`) and lists it on /account/applications, where "Revoke access" ends it.
import { db } from "~/db.server";
import { revokeEverythingFor } from "./adapter.server";
import { recordOidcSecurityEvent } from "./security-events.server";

/** The remembered consent of a person for an application: the scopes allowed, and the grant holding them. */
export async function rememberedConsent(userId: string, clientId: string) {
  const row = await db.oidcConsent.findUnique({ where: { userId_clientId: { userId, clientId } } });
  if (!row) return null;
  return {
    scopes: row.scopes.split(" ").filter(Boolean),
    grantId: row.grantId,
    /** The grant was ended (a sign-out, a reused code) and remade from the remembered scopes. */
    replaceGrant: async (grantId: string) => {
      await db.oidcConsent.updateMany({ where: { id: row.id }, data: { grantId } });
    },
  };
}

/** Remembers the scopes allowed (added to those allowed before) and the grant that holds them. */
export async function rememberConsent(userId: string, clientId: string, scopes: string[], grantId: string): Promise<void> {
  const before = await db.oidcConsent.findUnique({ where: { userId_clientId: { userId, clientId } } });
  const allowed = [...new Set([...(before?.scopes.split(" ").filter(Boolean) ?? []), ...scopes])].sort();
  await db.oidcConsent.upsert({
    where: { userId_clientId: { userId, clientId } },
    create: { userId, clientId, scopes: allowed.join(" "), grantId },
    update: { scopes: allowed.join(" "), grantId },
  });
  await recordOidcSecurityEvent({ kind: "oidc.consent-given", userId, clientId, scopes });
  if (!before) await recordOidcSecurityEvent({ kind: "oidc.tokens-issued-to-new-application", userId, clientId });
}

/** The applications a person allowed, newest first. */
export async function listApplications(userId: string) {
  const rows = await db.oidcConsent.findMany({ where: { userId }, include: { client: { select: { name: true } } }, orderBy: { createdAt: "desc" } });
  return rows.map((row) => ({ clientId: row.clientId, name: row.client.name, scopes: row.scopes.split(" ").filter(Boolean), allowedAt: row.createdAt }));
}

/**
 * "Revoke access": forgets the consent and ends every code, access and refresh token and grant the application
 * holds for this person. Idempotent; true if there was something to revoke.
 */
export async function revokeApplication(userId: string, clientId: string): Promise<boolean> {
  const { count } = await db.oidcConsent.deleteMany({ where: { userId, clientId } });
  await revokeEverythingFor(userId, clientId);
  if (count > 0) await recordOidcSecurityEvent({ kind: "oidc.consent-revoked", userId, clientId });
  return count > 0;
}
