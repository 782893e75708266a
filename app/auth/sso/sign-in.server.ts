// Signing in through an organization's connection (issue 43; docs/decisions/070-sso-connections.md): the start,
// `POST /sign-in/sso` (which connection: by e-mail or domain, where a proven connection always wins over unproven
// claims on the same domain; by organization slug; or by id), and the IdP's return, `GET /sso/callback/{id}`. The
// OAuth state is social sign-in's (ADR 021): 32 characters kept server-side for ten minutes, bound to this browser
// by a signed cookie, used once, carrying the PKCE verifier, the nonce and the redirect targets (judged as ADR 009).
import { AuthError } from "~/auth/errors";
import { withQuery } from "~/auth/core/links.server";
import type { RequestContext } from "~/auth/request-context.server";
import { finishFirstFactor } from "~/auth/sign-in/first-factor.server";
import { consumeState, createState } from "~/auth/social/state.server";
import { twoFactorPage } from "~/auth/username/identifier.server";
import { domainMatches, joinOrganization, resolveSsoIdentity } from "~/auth/sso/identity.server";
import { authorizationUrl, exchangeCode, profileOf, SsoCallbackError, userInfo, verifyIdToken, type SsoProfile } from "~/auth/sso/oidc-client.server";
import { acceptSamlResponse, samlAuthorizationUrl, takeRelayState, type RelayTargets } from "~/auth/sso/saml.server";
import { readOidcConfig } from "~/auth/sso/presenters.server";
import type { SignInInput } from "~/auth/sso/schemas";
import { db } from "~/db.server";
import type { SsoProvider } from "~/generated/prisma-sqlite/client";

const ERROR_PAGE = "/api/auth/error";
const DEFAULT_SCOPES = ["openid", "email", "profile"];
/** Connections looked at for one domain; an organization has at most SSO_PROVIDERS_LIMIT. */
const MAX_CANDIDATES = 200;
/** The state's providerId, apart from social providers' ids. */
const stateProviderId = (providerId: string) => `sso:${providerId}`;

/** "a.b.example.com" → ["a.b.example.com", "b.example.com", "example.com"]. */
function domainAndParents(host: string): string[] {
  const labels = host.split(".");
  return labels.slice(0, -1).map((_, index) => labels.slice(index).join("."));
}

/** Connections whose domains cover `host`; proven ones first, then in registration order. */
async function connectionsForDomain(host: string): Promise<SsoProvider[]> {
  const candidates = await db.ssoProvider.findMany({
    where: { OR: domainAndParents(host).map((domain) => ({ domain: { contains: domain } })) },
    orderBy: [{ domainVerified: "desc" }, { createdAt: "asc" }, { id: "asc" }],
    take: MAX_CANDIDATES,
  });
  return candidates.filter((provider) => domainMatches(`x@${host}`, provider.domain));
}

/** Which connection a sign-in names: 404 when none, 401 when none of those found is proven. */
export async function findConnection(input: Pick<SignInInput, "email" | "domain" | "organizationSlug" | "providerId">): Promise<SsoProvider> {
  let found: SsoProvider[];
  if (input.providerId) {
    found = await db.ssoProvider.findMany({ where: { providerId: input.providerId }, take: 1 });
  } else if (input.email || input.domain) {
    const host = (input.email ? input.email.slice(input.email.lastIndexOf("@") + 1) : input.domain!).trim().toLowerCase().replace(/\.$/, "");
    found = host ? await connectionsForDomain(host) : [];
  } else if (input.organizationSlug) {
    found = await db.ssoProvider.findMany({
      where: { organization: { slug: input.organizationSlug } },
      orderBy: [{ domainVerified: "desc" }, { createdAt: "asc" }],
      take: MAX_CANDIDATES,
    });
  } else {
    throw new AuthError("EMAIL_DOMAIN_ORGANIZATIONSLUG_OR_PROVIDERID_IS_REQUIRED");
  }
  if (!found.length) throw new AuthError("NO_PROVIDER_FOUND_FOR_THE_ISSUER");
  const proven = found.find((provider) => provider.domainVerified);
  if (!proven) throw new AuthError("PROVIDER_DOMAIN_HAS_NOT_BEEN_VERIFIED");
  return proven;
}

/** POST /sign-in/sso → {url, redirect: true}: the IdP's authorization URL. */
export async function startSsoSignIn(ctx: RequestContext, input: SignInInput) {
  const provider = await findConnection(input);
  if (provider.samlConfig) {
    const url = await samlAuthorizationUrl(provider, {
      providerId: provider.providerId,
      callbackURL: input.callbackURL || "/",
      newUserCallbackURL: input.newUserCallbackURL,
      errorCallbackURL: input.errorCallbackURL,
    });
    return { url, redirect: true };
  }
  const config = readOidcConfig(provider);
  if (!config) throw new AuthError("NO_PROVIDER_FOUND_FOR_THE_ISSUER");
  const { state, payload } = await createState(ctx, {
    userId: "",
    providerId: stateProviderId(provider.providerId),
    callbackURL: input.callbackURL || "/",
    newUserCallbackURL: input.newUserCallbackURL,
    errorCallbackURL: input.errorCallbackURL,
  });
  const scopes = [...new Set([...(config.scopes?.length ? config.scopes : DEFAULT_SCOPES), ...(input.scopes ?? [])])];
  const url = authorizationUrl(provider.providerId, config, {
    state,
    codeVerifier: payload.codeVerifier,
    nonce: payload.nonce,
    scopes,
    loginHint: input.loginHint || input.email,
  });
  return { url, redirect: true };
}

function errorRedirect(target: string | undefined, code: string, description?: string | null): string {
  return withQuery(target || ERROR_PAGE, { error: code, ...(description ? { error_description: description.slice(0, 200) } : {}) });
}

/**
 * GET /sso/callback/{providerId}: exchanges the code, verifies the ID token, decides who signs in, and returns where
 * to send the browser. Every failure is a redirect with `?error=` and no session; nothing the IdP or the browser
 * sent makes it throw.
 */
export async function completeSsoSignIn(ctx: RequestContext, providerId: string, params: URLSearchParams): Promise<string> {
  const stateValue = params.get("state");
  if (!stateValue) return errorRedirect(undefined, "invalid_state");
  const state = await consumeState(ctx, stateValue);
  if (typeof state === "string") return errorRedirect(undefined, "invalid_state");
  if (state.providerId !== stateProviderId(providerId)) return errorRedirect(state.errorCallbackURL, "invalid_state");
  const provider = await db.ssoProvider.findUnique({ where: { providerId } });
  const config = provider && readOidcConfig(provider);
  if (!provider || !config || !provider.domainVerified) return errorRedirect(state.errorCallbackURL, "invalid_provider");
  const idpError = params.get("error");
  if (idpError) return errorRedirect(state.errorCallbackURL, idpError.slice(0, 100), params.get("error_description"));
  const code = params.get("code");
  if (!code) return errorRedirect(state.errorCallbackURL, "no_code");
  try {
    const tokens = await exchangeCode(providerId, config, code, state.codeVerifier);
    const claims = await verifyIdToken(provider.issuer, config, tokens.idToken, state.nonce);
    const extra = await userInfo(config, tokens.accessToken, String(claims.sub));
    // The ID token's claims win over userinfo's: it is the signed statement.
    const profile = profileOf({ ...extra, ...claims }, config.mapping);
    return await signInAs(ctx, provider, profile, state);
  } catch (error) {
    return failureRedirect(error, providerId, state.errorCallbackURL);
  }
}

/** Who the IdP's person is, their membership, and the one door (ADR 027); where the browser goes next. */
async function signInAs(ctx: RequestContext, provider: SsoProvider, profile: SsoProfile, targets: Omit<RelayTargets, "providerId">): Promise<string> {
  const { user, isNew } = await resolveSsoIdentity(ctx, provider, profile);
  await joinOrganization(provider, user);
  // The IdP is a first factor like a password: a user with two-factor on still owes the second step (ADR 027).
  const outcome = await finishFirstFactor(ctx, user, {
    method: "social",
    provider: provider.providerId,
    providerName: `Single sign-on (${provider.providerId})`,
    newAccount: isNew,
  });
  const target = isNew && targets.newUserCallbackURL ? targets.newUserCallbackURL : targets.callbackURL;
  if (outcome.twoFactorRedirect) return withQuery(twoFactorPage(new URL(withQuery(target, {})).pathname), {});
  return withQuery(target, {});
}

function failureRedirect(error: unknown, providerId: string, errorCallbackURL: string | undefined): string {
  if (error instanceof SsoCallbackError) return errorRedirect(errorCallbackURL, error.code);
  if (error instanceof AuthError) return errorRedirect(errorCallbackURL, error.code.toLowerCase());
  console.error(`[latchkey] SSO return (${providerId}) failed:`, error);
  return errorRedirect(errorCallbackURL, "unable_to_sign_in");
}

/**
 * POST /sso/saml2/sp/acs/{providerId}: the IdP's cross-site post. Needs none of our cookies: the RelayState names
 * the server-side state, and the response must answer an AuthnRequest we sent for this connection.
 */
export async function completeSamlSignIn(ctx: RequestContext, providerId: string, form: URLSearchParams): Promise<string> {
  const relay = await takeRelayState(form.get("RelayState") ?? "");
  if (!relay) return errorRedirect(undefined, "invalid_state");
  if (relay.providerId !== providerId) return errorRedirect(relay.errorCallbackURL, "invalid_state");
  const provider = await db.ssoProvider.findUnique({ where: { providerId } });
  if (!provider || !provider.samlConfig || !provider.domainVerified) return errorRedirect(relay.errorCallbackURL, "invalid_provider");
  try {
    const profile = await acceptSamlResponse(provider, form.get("SAMLResponse") ?? "");
    return await signInAs(ctx, provider, profile, relay);
  } catch (error) {
    return failureRedirect(error, providerId, relay.errorCallbackURL);
  }
}
