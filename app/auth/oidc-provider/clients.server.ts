// Applications registered with the provider. Read from the database on every use (the provider's adapter for its
// Client model calls `clientMetadata`), so a client added while the server runs works at once on every instance.
// A confidential client's secret is 256 random bits shown once; only its SHA-256 is kept, and the provider
// compares a presented secret by hashing it first (provider.server.ts).
import { newId, randomBase64Url, safeEqual, sha256Hex } from "~/auth/core/crypto.server";
import { db } from "~/db.server";
import { DEFAULT_SIGNING_ALGORITHM } from "./constants";
import { recordOidcSecurityEvent } from "./security-events.server";

export interface NewClient {
  name: string;
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
  /** No secret: a browser or mobile app, which must use PKCE. */
  public?: boolean;
  /** A first-party application: confidential, and skips the consent page. */
  trusted?: boolean;
  /** The application's own site (OpenID's `client_uri`), shown on the consent page. */
  homepageUrl?: string;
}

export class ClientRegistrationError extends Error {
  override name = "ClientRegistrationError";
}

/** Exact redirect URIs: absolute, no fragment; plain http only for a loopback host (a developer's machine). */
function checkRedirectUri(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ClientRegistrationError(`"${value}" is not an absolute URL`);
  }
  if (url.hash) throw new ClientRegistrationError(`"${value}" has a fragment, which a redirect URI may not have`);
  const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  if (url.protocol === "http:" && !loopback) throw new ClientRegistrationError(`"${value}" must use https (plain http is for localhost only)`);
  if (url.protocol === "javascript:" || url.protocol === "data:") throw new ClientRegistrationError(`"${value}" is not a redirect URI`);
  return value;
}

/** An application's site: an absolute https address (http on localhost), nothing a browser would run. */
function checkHomepageUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ClientRegistrationError(`"${value}" is not an absolute URL`);
  }
  const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  if (!(url.protocol === "https:" || (url.protocol === "http:" && loopback))) {
    throw new ClientRegistrationError(`"${value}" must use https (plain http is for localhost only)`);
  }
  if (url.username || url.password) throw new ClientRegistrationError(`"${value}" may not carry a user name or password`);
  return url.href;
}

export async function addClient(input: NewClient): Promise<{ clientId: string; clientSecret: string | null }> {
  const name = input.name.trim();
  if (!name) throw new ClientRegistrationError("a client needs a --name");
  if (input.redirectUris.length === 0) throw new ClientRegistrationError("a client needs at least one --redirect-uri");
  if (input.public && input.trusted) throw new ClientRegistrationError("--trusted is for confidential first-party clients, not --public ones");
  const redirectUris = input.redirectUris.map(checkRedirectUri);
  const postLogoutRedirectUris = (input.postLogoutRedirectUris ?? []).map(checkRedirectUri);
  const homepageUrl = input.homepageUrl ? checkHomepageUrl(input.homepageUrl) : null;
  const clientId = newId();
  const clientSecret = input.public ? null : randomBase64Url(32);
  await db.oidcClient.create({
    data: {
      id: clientId,
      name,
      secretHash: clientSecret === null ? null : sha256Hex(clientSecret),
      redirectUris: JSON.stringify(redirectUris),
      postLogoutRedirectUris: JSON.stringify(postLogoutRedirectUris),
      trusted: input.trusted === true,
      homepageUrl,
    },
  });
  return { clientId, clientSecret };
}

export async function listClients() {
  const rows = await db.oidcClient.findMany({ orderBy: { createdAt: "asc" } });
  return rows.map((row) => ({
    clientId: row.id,
    name: row.name,
    public: row.secretHash === null,
    trusted: row.trusted,
    homepageUrl: row.homepageUrl,
    redirectUris: JSON.parse(row.redirectUris) as string[],
    postLogoutRedirectUris: JSON.parse(row.postLogoutRedirectUris) as string[],
    createdAt: row.createdAt,
  }));
}

/** Removes a client, its remembered consents and everything issued to it. False if there was none. */
/**
 * Removes an application: its registration, everything the provider holds for it, and every person's consent.
 * Each of those people finds "access ended: the application was removed" in their activity, written in the same
 * transaction, so no consent is gone without its event (ADR 051). One event per person who allowed it: an
 * operator's command, whose cost grows with the application's users. An admin removing it in the console is
 * named as the events' actor.
 */
export async function removeClient(clientId: string, { actorUserId = null }: { actorUserId?: string | null } = {}): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const consents = await tx.oidcConsent.findMany({ where: { clientId }, select: { userId: true } });
    for (const { userId } of consents) {
      await recordOidcSecurityEvent(tx, { type: "application_revoked", userId, clientId, applicationRemoved: true, actorUserId });
    }
    const { count } = await tx.oidcClient.deleteMany({ where: { id: clientId } }); // consents go with it
    await tx.oidcModel.deleteMany({ where: { clientId } });
    return count > 0;
  });
}

export async function findClient(clientId: string) {
  return db.oidcClient.findUnique({ where: { id: clientId } });
}

/** The metadata oidc-provider reads for a client, or undefined for an unknown one. */
export async function clientMetadata(clientId: string): Promise<Record<string, unknown> | undefined> {
  const row = await findClient(clientId);
  if (!row) return undefined;
  return {
    client_id: row.id,
    client_name: row.name,
    // The hash stands where the provider expects the secret; it compares a presented secret's hash with it.
    ...(row.secretHash === null ? { token_endpoint_auth_method: "none" } : { client_secret: row.secretHash, token_endpoint_auth_method: "client_secret_basic" }),
    redirect_uris: JSON.parse(row.redirectUris),
    post_logout_redirect_uris: JSON.parse(row.postLogoutRedirectUris),
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    id_token_signed_response_alg: DEFAULT_SIGNING_ALGORITHM,
  };
}

/** A presented secret against the stored hash, in constant time. */
export function secretMatches(storedHash: string | undefined, presented: unknown): boolean {
  return typeof storedHash === "string" && typeof presented === "string" && safeEqual(storedHash, sha256Hex(presented));
}
