// The OpenID provider: oidc-provider (OpenID Certified) configured for Latchkey and mounted by the server in
// front of everything else for its paths (server/serve.mjs asks `handlesOidcPath`). Loaded on the first such
// request, never at start-up (docs/decisions/026-load-what-is-used.md). See docs/decisions/046-openid-provider.md.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Provider } from "oidc-provider";
import { hmacBase64Url } from "~/auth/core/crypto.server";
import { AuthError } from "~/auth/errors";
import { noteWhoActs } from "~/auth/admin/impersonation-guard.server";
import { enforceRateLimit } from "~/auth/rate-limit/limits.server";
import { lookUpSession, signOut } from "~/auth/session/sessions.server";
import { env } from "~/env.server";
import { findAccount } from "./accounts.server";
import { prismaAdapter, revokeGrant } from "./adapter.server";
import { secretMatches } from "./clients.server";
import { noteTokensIssued, rememberedConsent } from "./consent.server";
import {
  ACCESS_TOKEN_SECONDS,
  AUTHORIZATION_CODE_SECONDS,
  DISCOVERY_PATH,
  GRANT_SECONDS,
  ID_TOKEN_SECONDS,
  INTERACTION_COOKIE_PREFIX,
  INTERACTION_PAGE,
  INTERACTION_SECONDS,
  API_BASE,
  OIDC_CLAIMS,
  OIDC_PREFIX,
  OIDC_ROUTES,
  OIDC_SCOPES,
  PROVIDER_SESSION_SECONDS,
  REFRESH_TOKEN_SECONDS,
  SIGNING_ALGORITHMS,
} from "./constants";
import { currentKeyFingerprint, signingKeySet } from "./keys.server";
import { errorPage, signedOutPage, signOutQuestionPage, tooManyRequestsPage } from "./page.server";

/* eslint-disable @typescript-eslint/no-explicit-any -- oidc-provider's context objects are untyped (oidc-provider.d.ts) */
type KoaContext = any;

/** Whether the server hands a request to the provider rather than to the API dispatch or Remix. */
export function handlesOidcPath(pathname: string): boolean {
  return pathname === DISCOVERY_PATH || pathname === OIDC_PREFIX || pathname.startsWith(`${OIDC_PREFIX}/`);
}

/** The Latchkey session a provider request carries in its cookies: the provider's sign-in is Latchkey's own. */
async function latchkeySessionOf(ctx: KoaContext) {
  const cookie = ctx.get("cookie");
  if (!cookie) return null;
  const request = new Request(env.BASE_URL, { headers: { cookie } });
  return lookUpSession({ request, clientIp: ctx.ip ?? "unknown", userAgent: null, responseHeaders: new Headers() });
}

async function buildProvider(keys: Awaited<ReturnType<typeof signingKeySet>>): Promise<Provider> {
  const oidc = await import("oidc-provider");
  const { interactionPolicy, errors } = oidc;

  // The provider's own session follows Latchkey's: nobody signed in to Latchkey (signed out since, or someone
  // else now) is asked to sign in, and `prompt=none` answers login_required.
  const policy = interactionPolicy.base();
  policy.get("login").checks.unshift(
    new interactionPolicy.Check("latchkey_session", "End-User authentication is required", "login_required", async (ctx: KoaContext) => {
      const current = await latchkeySessionOf(ctx);
      // An admin acting as someone never signs in to an application as them (the page says so, ADR 051).
      return current && current.user.id === ctx.oidc.session.accountId && !current.session.impersonatedBy
        ? interactionPolicy.Check.NO_NEED_TO_PROMPT
        : interactionPolicy.Check.REQUEST_PROMPT;
    }),
  );

  const Adapter = prismaAdapter(
    async (_model, grantId) => {
      // Lost a race for a code or refresh token: the same answer as a second use, and the same revocation.
      if (grantId) await revokeGrant(grantId);
      throw new errors.InvalidGrant("grant already used");
    },
    // The first tokens under a consent are a security event of the person (application_tokens_issued).
    noteTokensIssued,
  );

  const provider = new oidc.Provider(env.BASE_URL, {
    adapter: Adapter,
    clients: [],
    findAccount: (_ctx: KoaContext, sub: string) => findAccount(sub),
    claims: OIDC_CLAIMS,
    scopes: [...OIDC_SCOPES],
    responseTypes: ["code"],
    routes: OIDC_ROUTES,
    jwks: { keys: keys.privateKeys },
    cookies: {
      keys: [hmacBase64Url("cookie keys", "oidc-provider")],
      long: { httpOnly: true, sameSite: "lax", secure: env.BASE_URL.startsWith("https:") },
      short: { httpOnly: true, sameSite: "lax", secure: env.BASE_URL.startsWith("https:") },
    },
    pkce: { required: (_ctx: KoaContext, client: KoaContext) => client.clientAuthMethod === "none" },
    allowOmittingSingleRegisteredRedirectUri: false,
    // Profile and e-mail claims go in the ID token too, which is what most relying parties read.
    conformIdTokenClaims: false,
    rotateRefreshToken: true,
    enabledJWA: { idTokenSigningAlgValues: [...SIGNING_ALGORITHMS], userinfoSigningAlgValues: [...SIGNING_ALGORITHMS] },
    ttl: {
      AuthorizationCode: AUTHORIZATION_CODE_SECONDS,
      AccessToken: ACCESS_TOKEN_SECONDS,
      IdToken: ID_TOKEN_SECONDS,
      RefreshToken: REFRESH_TOKEN_SECONDS,
      Interaction: INTERACTION_SECONDS,
      Session: PROVIDER_SESSION_SECONDS,
      Grant: GRANT_SECONDS,
    },
    features: {
      devInteractions: { enabled: false },
      // An application may look at and revoke only what was issued to it.
      revocation: { enabled: true, allowedPolicy: async (_ctx: KoaContext, client: KoaContext, token: KoaContext) => token.clientId === client.clientId },
      introspection: { enabled: true, allowedPolicy: async (_ctx: KoaContext, client: KoaContext, token: KoaContext) => token.clientId === client.clientId },
      userinfo: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx: KoaContext, form: string) => {
          ctx.type = "html";
          ctx.body = signOutQuestionPage(form, ctx.oidc.client?.clientName ?? null);
        },
        postLogoutSuccessSource: async (ctx: KoaContext) => {
          ctx.type = "html";
          ctx.body = signedOutPage(ctx.oidc.client?.clientName ?? null);
        },
      },
    },
    // A browser application may call the token endpoint from the origin of one of its redirect URIs.
    clientBasedCORS: (_ctx: KoaContext, origin: string, client: KoaContext) =>
      client.redirectUris.some((uri: string) => {
        try {
          return new URL(uri).origin === origin;
        } catch {
          return false;
        }
      }),
    interactions: { policy, url: (_ctx: KoaContext, interaction: KoaContext) => `${INTERACTION_PAGE}/${interaction.uid}` },
    loadExistingGrant: (ctx: KoaContext) => existingGrant(ctx),
    renderError: async (ctx: KoaContext, out: { error?: string; error_description?: string }) => {
      ctx.type = "html";
      ctx.body = errorPage(out);
    },
  });
  provider.proxy = env.TRUST_PROXY !== "false";

  // Secrets are stored hashed: a presented one is hashed, then compared in constant time.
  provider.Client.prototype.compareClientSecret = function compareClientSecret(this: { clientSecret?: string }, actual: unknown) {
    return Promise.resolve(secretMatches(this.clientSecret, actual));
  };

  // The browser sent to an interaction page is the one that may answer it (interaction.server.ts).
  provider.use(async (ctx: KoaContext, next) => {
    await next();
    const location: string | undefined = ctx.response.get("Location") || undefined;
    if (!location) return;
    const path = new URL(location, env.BASE_URL).pathname;
    if (!path.startsWith(`${INTERACTION_PAGE}/`)) return;
    const uid = path.slice(INTERACTION_PAGE.length + 1);
    const secure = env.BASE_URL.startsWith("https:") ? "; Secure" : "";
    ctx.append("Set-Cookie", `${INTERACTION_COOKIE_PREFIX}${uid}=1; Path=${INTERACTION_PAGE}; Max-Age=${INTERACTION_SECONDS}; HttpOnly; SameSite=Lax${secure}`);
  });

  // Introspection asks whether the account may still be served, as refresh and userinfo do through findAccount:
  // belt and braces behind the revocations that end a banned or deleted person's tokens (ADR 055).
  provider.use(async (ctx: KoaContext, next) => {
    await next();
    if (ctx.oidc?.route !== "introspection" || ctx.status !== 200) return;
    const answer = ctx.body;
    if (answer?.active === true && typeof answer.sub === "string" && !(await findAccount(answer.sub))) ctx.body = { active: false };
  });

  // RP-initiated logout signs the browser out of Latchkey too: the provider's sign-in is Latchkey's.
  provider.use(async (ctx: KoaContext, next) => {
    await next();
    if (ctx.oidc?.route === "end_session_confirm" && ctx.oidc.params?.logout && ctx.status >= 300 && ctx.status < 400) {
      const responseHeaders = new Headers();
      const latchkeyCtx = { request: new Request(env.BASE_URL, { headers: { cookie: ctx.get("cookie") } }), clientIp: ctx.ip, userAgent: null, responseHeaders };
      await noteWhoActs(latchkeyCtx); // an impersonator's sign-out is recorded as the admin's (ADR 050)
      await signOut(latchkeyCtx);
      for (const cookie of responseHeaders.getSetCookie()) ctx.append("Set-Cookie", cookie);
    }
  });
  return provider;
}

/**
 * The grant a request continues: the one the consent page just made, else this session's, else the remembered
 * consent's — remade from the remembered scopes when its grant was ended (a sign-out, a reused code): consent is
 * remembered per person, application and scopes, not per grant.
 */
async function existingGrant(ctx: KoaContext) {
  const { Grant } = ctx.oidc.provider;
  const accountId: string | undefined = ctx.oidc.session.accountId;
  const clientId: string = ctx.oidc.client.clientId;
  const current = ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(clientId);
  if (current) {
    const grant = await Grant.find(current);
    if (grant && grant.accountId === accountId) return grant;
  }
  if (!accountId) return undefined;
  const remembered = await rememberedConsent(accountId, clientId);
  if (!remembered) return undefined;
  const kept = await Grant.find(remembered.grantId);
  if (kept && kept.accountId === accountId) return kept;
  const grant = new Grant({ accountId, clientId });
  grant.addOIDCScope(remembered.scopes.join(" "));
  await grant.save();
  await remembered.replaceGrant(grant.jti);
  return grant;
}

interface Built {
  fingerprint: string;
  provider: Provider;
  callback: ReturnType<Provider["callback"]>;
}
const state: { built?: Promise<Built> } = {};

/**
 * The provider, rebuilt when the key set changed (a rotation on any instance, seen at this instance's next
 * request: one small read per request). Everything else it needs is read from the database per request.
 */
async function current(): Promise<Built> {
  const built = state.built;
  if (built) {
    const known = await built;
    if ((await currentKeyFingerprint()) === known.fingerprint) return known;
    if (state.built !== built) return state.built!;
  }
  const next = signingKeySet().then(async (keys) => {
    const provider = await buildProvider(keys);
    return { fingerprint: keys.fingerprint, provider, callback: provider.callback() };
  });
  state.built = next;
  next.catch(() => {
    if (state.built === next) state.built = undefined;
  });
  return next;
}

export async function oidcProvider(): Promise<Provider> {
  return (await current()).provider;
}

/**
 * The rate-limit bucket of a provider path, named as API paths are (under /api/auth, lower case): the token,
 * introspection, revocation, userinfo and authorization endpoints each count apart, with the default rule
 * (ADR 006). Discovery counts as "/.well-known/openid-configuration".
 */
export function oidcRateLimitPath(pathname: string): string {
  const path = pathname.toLowerCase().replace(/\/+$/, "");
  return path.startsWith(`${API_BASE}/`) ? path.slice(API_BASE.length) : path || "/";
}

/** Paths a person's browser is sent to: a refusal there is a page; the others answer as OAuth endpoints do. */
const BROWSER_PATHS = new Set([OIDC_ROUTES.authorization, OIDC_ROUTES.end_session, `${OIDC_ROUTES.end_session}/confirm`, `${OIDC_ROUTES.end_session}/success`]);

/**
 * A 429 in the protocol's shape: `{error, error_description}` (RFC 6749 §5.2's shape; `temporarily_unavailable`
 * is its word for "not now") for the token, introspection, revocation and userinfo endpoints and discovery; a
 * page in words for the browser's endpoints. Both say when to come back (Retry-After).
 */
function answerTooManyRequests(req: IncomingMessage, res: ServerResponse, retryAfter: string): void {
  const browser = BROWSER_PATHS.has(pathOf(req.url).toLowerCase().replace(/\/+$/, ""));
  const headers = { "Cache-Control": "no-store", "Retry-After": retryAfter };
  if (browser) {
    res.writeHead(429, { ...headers, "Content-Type": "text/html; charset=utf-8" });
    res.end(tooManyRequestsPage(Number(retryAfter)));
    return;
  }
  res.writeHead(429, { ...headers, "Content-Type": "application/json; charset=utf-8" });
  res.end(JSON.stringify({ error: "temporarily_unavailable", error_description: `too many requests; try again in ${retryAfter} seconds` }));
}

function pathOf(url: string | undefined): string {
  const target = url ?? "/";
  const query = target.indexOf("?");
  return query === -1 ? target : target.slice(0, query);
}

/** The server's entry (server/serve.mjs): answer a request on one of the provider's paths. */
export async function handleOidcRequest(req: IncomingMessage, res: ServerResponse, clientIp = "unknown"): Promise<void> {
  try {
    await enforceRateLimit(clientIp, oidcRateLimitPath(pathOf(req.url)));
  } catch (error) {
    if (error instanceof AuthError && error.code === "TOO_MANY_REQUESTS") {
      answerTooManyRequests(req, res, error.headers["Retry-After"] ?? "1");
      return;
    }
    // The counters' store failed: as for every other request (the endpoint helper), the request is not served.
    console.error("[latchkey] OpenID provider rate limit:", error);
    if (!res.headersSent) {
      res.writeHead(503, { "Content-Type": "application/json", "Cache-Control": "no-store" });
      res.end(JSON.stringify({ error: "temporarily_unavailable", error_description: "try again" }));
    }
    return;
  }
  try {
    (await current()).callback(req, res);
  } catch (error) {
    console.error("[latchkey] OpenID provider:", error);
    if (!res.headersSent) {
      res.writeHead(503, { "Content-Type": "application/json", "Cache-Control": "no-store" });
      res.end(JSON.stringify({ error: "temporarily_unavailable", error_description: "the provider could not start; try again" }));
    }
  }
}
