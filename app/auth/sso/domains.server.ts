// Proving an organization owns a connection's e-mail domains by DNS TXT (docs/decisions/070-sso-connections.md):
// registration issues a token (24 random characters, seven days) kept in the one verification table; the record
// to create is `_{prefix}-{providerId}.{domain}` with the value `_{prefix}-{providerId}={token}` (the bare token
// counts too). Every listed domain must carry it. The token is not a secret (it is published in DNS), so it is
// kept readable: the page shows it again while it lasts.
import { Resolver } from "node:dns/promises";
import { randomToken } from "~/auth/core/crypto.server";
import { AuthError } from "~/auth/errors";
import { requireConnectionAdmin } from "~/auth/sso/access.server";
import { db, type Transaction } from "~/db.server";
import { env } from "~/env.server";
import type { SessionWithUser } from "~/auth/session/sessions.server";
import { recordConnectionEvent } from "~/auth/sso/events.server";
import type { RequestContext } from "~/auth/request-context.server";

export const DOMAIN_TOKEN_LENGTH = 24;
export const DOMAIN_TOKEN_TTL_SECONDS = 7 * 24 * 60 * 60;
const DNS_TIMEOUT_MS = 5_000;

const identifier = (providerId: string) => `sso-domain-token:${providerId}`;

/** `_better-auth-token-acme`: the record's first label and the value's key. */
export const recordLabel = (providerId: string) => `_${env.SSO_DOMAIN_TOKEN_PREFIX}-${providerId}`;

/** What the IdP's admin creates in DNS, for each domain of the connection. */
export function txtRecords(providerId: string, domain: string, token: string) {
  return domain.split(",").map((name) => ({ name: `${recordLabel(providerId)}.${name}`, value: `${recordLabel(providerId)}=${token}` }));
}

/** A new token, replacing any earlier one (registration; a new domain). */
export async function issueDomainToken(client: Transaction | typeof db, providerId: string): Promise<string> {
  const token = randomToken(DOMAIN_TOKEN_LENGTH);
  const data = { value: JSON.stringify({ token }), expiresAt: new Date(Date.now() + DOMAIN_TOKEN_TTL_SECONDS * 1000) };
  await client.verification.upsert({ where: { identifier: identifier(providerId) }, create: { identifier: identifier(providerId), ...data }, update: data });
  return token;
}

/** The live token, or null when none was issued or it has expired. */
export async function liveDomainToken(providerId: string): Promise<string | null> {
  const row = await db.verification.findUnique({ where: { identifier: identifier(providerId) } });
  if (!row || row.expiresAt.getTime() <= Date.now()) return null;
  try {
    return (JSON.parse(row.value) as { token: string }).token;
  } catch {
    return null;
  }
}

export async function forgetDomainToken(client: Transaction | typeof db, providerId: string): Promise<void> {
  await client.verification.deleteMany({ where: { identifier: identifier(providerId) } });
}

/** POST /sso/request-domain-verification: the live token again, or a new one; 409 once proven. */
export async function requestDomainVerification(current: SessionWithUser, providerId: string) {
  const provider = await requireConnectionAdmin(current, providerId, "INSUFICCIENT_ACCESS");
  if (provider.domainVerified) throw new AuthError("DOMAIN_VERIFIED");
  const domainVerificationToken = (await liveDomainToken(providerId)) ?? (await issueDomainToken(db, providerId));
  return { domainVerificationToken };
}

function resolver(): Resolver {
  const dns = new Resolver({ timeout: DNS_TIMEOUT_MS, tries: 2 });
  if (env.SSO_DNS_SERVERS.length) dns.setServers(env.SSO_DNS_SERVERS);
  return dns;
}

/** The TXT strings at `name` (a record split into several strings is joined); none when the look-up fails. */
async function txtAt(dns: Resolver, name: string): Promise<string[]> {
  try {
    return (await dns.resolveTxt(name)).map((parts) => parts.join(""));
  } catch {
    return [];
  }
}

/**
 * POST /sso/verify-domain: every listed domain must carry the record. Proven → the connection is verified
 * (answered 204 by the route); otherwise 502 DOMAIN_VERIFICATION_FAILED and nothing changes.
 */
export async function verifyDomain(current: SessionWithUser, providerId: string, ctx?: RequestContext): Promise<void> {
  const provider = await requireConnectionAdmin(current, providerId, "INSUFICCIENT_ACCESS");
  if (provider.domainVerified) throw new AuthError("DOMAIN_VERIFIED");
  const token = await liveDomainToken(providerId);
  if (!token) throw new AuthError("NO_PENDING_VERIFICATION");
  const dns = resolver();
  const expected = `${recordLabel(providerId)}=${token}`;
  const records = txtRecords(providerId, provider.domain, token);
  const found = await Promise.all(records.map(async ({ name }) => (await txtAt(dns, name)).some((value) => value.trim() === expected || value.trim() === token)));
  if (!found.every(Boolean)) throw new AuthError("DOMAIN_VERIFICATION_FAILED");
  // Conditional on the domain being the one checked: a change of domain meanwhile needs its own proof.
  await db.$transaction(async (tx) => {
    const { count } = await tx.ssoProvider.updateMany({ where: { providerId, domain: provider.domain, domainVerified: false }, data: { domainVerified: true } });
    if (count === 0) throw new AuthError("DOMAIN_VERIFICATION_FAILED");
    await forgetDomainToken(tx, providerId);
    await recordConnectionEvent(tx, "sso_domain_verified", current, provider, ctx);
  });
}
