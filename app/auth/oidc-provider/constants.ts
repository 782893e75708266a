// Where the OpenID provider answers and how long what it issues lives (docs/decisions/046-openid-provider.md).

/** The API's prefix (app/http/endpoint.server.ts's API_BASE_PATH; the domain does not import the HTTP layer). */
export const API_BASE = "/api/auth";
/** Every protocol endpoint lives under the API's prefix; discovery names them. */
export const OIDC_PREFIX = `${API_BASE}/oauth2`;
export const DISCOVERY_PATH = "/.well-known/openid-configuration";

export const OIDC_ROUTES = {
  authorization: `${OIDC_PREFIX}/authorize`,
  token: `${OIDC_PREFIX}/token`,
  userinfo: `${OIDC_PREFIX}/userinfo`,
  jwks: `${OIDC_PREFIX}/jwks`,
  revocation: `${OIDC_PREFIX}/revoke`,
  introspection: `${OIDC_PREFIX}/introspect`,
  end_session: `${OIDC_PREFIX}/end-session`,
  // The provider serves pushed authorization requests (RFC 9126) by default and discovery names them: under the
  // prefix like the rest, or the default `/request` would be advertised where nothing answers (issue 38).
  pushed_authorization_request: `${OIDC_PREFIX}/par`,
} as const;

/** The page (app/routes/oauth2.interaction.$uid.tsx) that signs a person in for a request and asks their consent. */
export const INTERACTION_PAGE = "/oauth2/interaction";

/**
 * The cookie (name + uid) that binds an interaction to the browser the provider sent to it. The provider's own
 * `_interaction` cookie is scoped to the page's exact path, which Remix's data requests (`…/uid.data`) do not
 * carry; this one is scoped to the interaction pages.
 */
export const INTERACTION_COOKIE_PREFIX = "latchkey_oidc_interaction_";

/** The scopes a client may ask for, and the claims each one releases. */
export const OIDC_SCOPES = ["openid", "profile", "email", "offline_access"] as const;
export const OIDC_CLAIMS = {
  openid: ["sub"],
  profile: ["name", "picture"],
  email: ["email", "email_verified"],
} as const;

/** The algorithms ID tokens may be signed with; a client picks one when registered, RS256 unless it says. */
export const SIGNING_ALGORITHMS = ["RS256", "ES256", "EdDSA"] as const;
export type SigningAlgorithm = (typeof SIGNING_ALGORITHMS)[number];
export const DEFAULT_SIGNING_ALGORITHM: SigningAlgorithm = "RS256";

const MINUTE_SECONDS = 60;
const HOUR_SECONDS = 60 * MINUTE_SECONDS;
const DAY_SECONDS = 24 * HOUR_SECONDS;

/** The issue asks for 60 seconds or less: a code is exchanged by the client's server right after the redirect. */
export const AUTHORIZATION_CODE_SECONDS = 60;
export const ACCESS_TOKEN_SECONDS = HOUR_SECONDS;
export const ID_TOKEN_SECONDS = HOUR_SECONDS;
export const REFRESH_TOKEN_SECONDS = 30 * DAY_SECONDS;
/** How long a person has to sign in and answer the consent page. */
export const INTERACTION_SECONDS = HOUR_SECONDS;
export const PROVIDER_SESSION_SECONDS = 30 * DAY_SECONDS;
/** A remembered consent's grant outlives any refresh token issued under it. */
export const GRANT_SECONDS = 365 * DAY_SECONDS;
/** GET /api/auth/token's JWT, as Better Auth's JWT plugin makes it (15 minutes). */
export const SESSION_JWT_SECONDS = 15 * MINUTE_SECONDS;
/**
 * A key replaced by a rotation stays published this long, so every token it signed (the longest lived is an ID
 * token, an hour) still verifies, with a day's room for relying parties that cache the key set.
 */
export const KEY_OVERLAP_SECONDS = DAY_SECONDS + ID_TOKEN_SECONDS;
