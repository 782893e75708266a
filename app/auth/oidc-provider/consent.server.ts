// Remembered consent: a person's "Allow" for an application, per person, application and scopes. The provider's
// Grant holds what was allowed; the row here finds it again the next time the application asks (the provider's
// `loadExistingGrant`) and lists it on /account/applications, where "Revoke access" ends it.
import { DEFAULT_PAGE_SIZE } from "~/auth/schemas";
import type { RequestContext } from "~/auth/request-context.server";
import { db, type Transaction } from "~/db.server";
import { revokeEverythingFor } from "./adapter.server";
import { recordOidcSecurityEvent } from "./security-events.server";

/** The request a person's answer came through (its client address and browser, for the event). */
type EventContext = Pick<RequestContext, "clientIp" | "userAgent">;

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

/**
 * Remembers the scopes allowed (added to those allowed before) and the grant that holds them, with the
 * `application_authorized` event in the same transaction.
 */
export async function rememberConsent(
  ctx: EventContext,
  userId: string,
  clientId: string,
  scopes: string[],
  grantId: string,
  /** `lastingAccess`: this consent newly gives `offline_access`, a new way in whose event mails the owner. */
  options: { lastingAccess?: boolean } = {},
): Promise<void> {
  await db.$transaction(async (tx) => {
    const before = await tx.oidcConsent.findUnique({ where: { userId_clientId: { userId, clientId } } });
    const allowed = [...new Set([...(before?.scopes.split(" ").filter(Boolean) ?? []), ...scopes])].sort();
    await tx.oidcConsent.upsert({
      where: { userId_clientId: { userId, clientId } },
      create: { userId, clientId, scopes: allowed.join(" "), grantId },
      update: { scopes: allowed.join(" "), grantId },
    });
    await recordOidcSecurityEvent(tx, { type: "application_authorized", userId, clientId, scopes, lastingAccess: options.lastingAccess === true }, ctx);
  });
}

/**
 * The first tokens an application receives under a person's consent: marks the consent (a conditional update, so
 * of two token requests at once exactly one wins) and writes `application_tokens_issued`, with `tx`, the
 * transaction that stores the access token. A consent revoked and given again counts as a new application.
 */
export async function noteTokensIssued(tx: Transaction, userId: string, clientId: string): Promise<void> {
  const now = new Date();
  const { count } = await tx.oidcConsent.updateMany({ where: { userId, clientId, tokensIssuedAt: null }, data: { tokensIssuedAt: now, lastUsedAt: now } });
  if (count > 0) await recordOidcSecurityEvent(tx, { type: "application_tokens_issued", userId, clientId });
  // Every later access token (a sign-in or a refresh) is a use: "Last used" on /account/applications (ADR 066).
  else await tx.oidcConsent.updateMany({ where: { userId, clientId }, data: { lastUsedAt: now } });
}

/** The applications a person allowed, newest first: the latest 100, as every list is bounded (ADR 044). */
export async function listApplications(userId: string) {
  const rows = await db.oidcConsent.findMany({ where: { userId }, include: { client: { select: { name: true } } }, orderBy: { createdAt: "desc" }, take: DEFAULT_PAGE_SIZE });
  return rows.map((row) => ({
    clientId: row.clientId,
    name: row.client.name,
    scopes: row.scopes.split(" ").filter(Boolean),
    allowedAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
  }));
}

/**
 * "Revoke access": forgets the consent and ends every code, access and refresh token and grant the application
 * holds for this person. Idempotent; true if there was something to revoke.
 */
export async function revokeApplication(ctx: EventContext, userId: string, clientId: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.oidcConsent.deleteMany({ where: { userId, clientId } });
    await revokeEverythingFor(tx, userId, clientId);
    if (count > 0) await recordOidcSecurityEvent(tx, { type: "application_revoked", userId, clientId }, ctx);
    return count > 0;
  });
}
