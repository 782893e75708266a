// Social sign-in and linking: the start (/sign-in/social, /link-social), the provider's return (/callback/{id},
// through remix-auth), and the id-token path. Who the returning identity becomes is decided in one place,
// `resolveIdentity`, with the linking rules of spec §5 and docs/decisions/021-social-sign-in.md.
import { languageOfSignInPage } from "~/i18n/choose.server";
import { Authenticator } from "remix-auth";
import { newId } from "~/auth/core/crypto.server";
import { AuthError } from "~/auth/errors";
import { normalizeEmail } from "~/auth/core/email-address";
import { withQuery } from "~/auth/core/links.server";
import { publicUser } from "~/auth/core/presenters.server";
import { recordSecurityEvent } from "~/auth/security-events/record.server";
import type { RequestContext } from "~/auth/request-context.server";
import { isSafeImageUrl, MAX_NAME_LENGTH } from "~/auth/schemas";
import { getSession } from "~/auth/session/sessions.server";
import { finishFirstFactor } from "~/auth/sign-in/first-factor.server";
import { twoFactorPage } from "~/auth/username/identifier.server";
import { useIdTokenOnce } from "~/auth/social/id-tokens.server";
import { accountTokenData } from "~/auth/social/tokens.server";
import { providerFor, type ProviderTokens, type SocialProfile, type SocialProvider } from "~/auth/social/providers/registry.server";
import { consumeState, createState, type OAuthState } from "~/auth/social/state.server";
import { CallbackError, SocialCallbackStrategy, type CallbackOutcome } from "~/auth/social/strategy.server";
import { db, isUniqueViolation, type Transaction, type User } from "~/db.server";
import { proveInbox } from "~/auth/account/claim.server";
import { isBanned } from "~/auth/admin/bans.server";
import { refuseToJoin, welcomeUnverified } from "~/auth/social/unvouched.server";
import { env } from "~/env.server";
import { metrics } from "~/observability/metrics.server";

const ERROR_PAGE = "/api/auth/error";

export interface StartInput {
  provider: string;
  callbackURL?: string;
  newUserCallbackURL?: string;
  errorCallbackURL?: string;
  scopes?: string[];
  requestSignUp?: boolean;
  disableRedirect?: boolean;
}

/** POST /sign-in/social and /link-social without an id token: where to send the browser. */
export async function startSocialFlow(ctx: RequestContext, input: StartInput, linkUserId = "") {
  const provider = providerFor(input.provider);
  const { state, payload } = await createState(ctx, {
    userId: linkUserId,
    providerId: provider.id,
    callbackURL: input.callbackURL || "/",
    newUserCallbackURL: input.newUserCallbackURL,
    errorCallbackURL: input.errorCallbackURL,
    requestSignUp: input.requestSignUp,
  });
  const scopes = [...new Set([...provider.defaultScopes, ...(input.scopes ?? [])])];
  const url = await provider.authorizationUrl({ state, codeVerifier: payload.codeVerifier, scopes, nonce: payload.nonce });
  return { url: url.href, redirect: !input.disableRedirect };
}

/** Failures of the return trip, as the ?error= codes of spec §2 and §8. */
const CALLBACK_CODES: Record<string, string> = {
  FAILED_TO_GET_USER_INFO: "unable_to_get_user_info",
  USER_EMAIL_NOT_FOUND: "email_not_found",
  ACCOUNT_NOT_LINKED: "account not linked",
  SOCIAL_ACCOUNT_ALREADY_LINKED: "account_already_linked_to_different_user",
  EMAIL_DOESNT_MATCH: "email_doesn't_match",
  FAILED_TO_CREATE_USER: "unable to create user",
  FAILED_TO_CREATE_SESSION: "unable to create session",
  // With verification required, an account whose address nobody has proven waits for the mailed link (issue 37).
  EMAIL_NOT_VERIFIED: "email_not_verified",
};

function errorRedirect(target: string | undefined, code: string, description?: string): string {
  return withQuery(target || ERROR_PAGE, { error: code, ...(description ? { error_description: description.slice(0, 200) } : {}) });
}

/**
 * GET /callback/{id}: the provider sends the browser back with a code (or an error). Returns where to send the
 * browser next; never throws for anything the provider or the browser sent.
 */
export async function completeSocialFlow(ctx: RequestContext, providerId: string, params: URLSearchParams): Promise<string> {
  let provider: SocialProvider;
  try {
    provider = providerFor(providerId);
  } catch {
    return errorRedirect(undefined, "oauth_provider_not_found");
  }
  const stateValue = params.get("state");
  if (!stateValue) return errorRedirect(undefined, params.get("error") ? params.get("error")! : "state_not_found");
  const state = await consumeState(ctx, stateValue);
  if (typeof state === "string") return errorRedirect(undefined, state);
  if (state.providerId !== provider.id) return errorRedirect(state.errorCallbackURL, "state_mismatch");
  const providerError = params.get("error");
  if (providerError) return errorRedirect(state.errorCallbackURL, providerError.slice(0, 100), params.get("error_description") ?? undefined);
  if (!params.get("code")) return errorRedirect(state.errorCallbackURL, "no_code");

  const authenticator = new Authenticator<CallbackOutcome>().use(
    new SocialCallbackStrategy(provider, state, async ({ profile, tokens }) => finish(ctx, provider, state, profile, tokens)),
    provider.id,
  );
  try {
    const outcome = await authenticator.authenticate(provider.id, ctx.request);
    const target = outcome.isNew && state.newUserCallbackURL ? state.newUserCallbackURL : state.callbackURL;
    if (outcome.twoFactor) return withQuery(twoFactorPage(new URL(withQuery(target, {})).pathname), {});
    return withQuery(target, {});
  } catch (error) {
    if (error instanceof CallbackError) return errorRedirect(state.errorCallbackURL, error.code);
    if (error instanceof AuthError && CALLBACK_CODES[error.code]) return errorRedirect(state.errorCallbackURL, CALLBACK_CODES[error.code]);
    console.error(`[latchkey] social callback (${provider.id}) failed:`, error);
    return errorRedirect(state.errorCallbackURL, "unable_to_get_user_info");
  }
}

async function finish(ctx: RequestContext, provider: SocialProvider, state: OAuthState, profile: SocialProfile, tokens: ProviderTokens) {
  // The ID token from the provider's token endpoint is recorded as used, so it cannot be replayed on the
  // id-token path later (ADR 031). Here the code and the state are what make the sign-in single-use.
  if (tokens.idToken) await useIdTokenOnce(tokens.idToken);
  if (state.userId) {
    await linkIdentity(ctx, provider, state.userId, profile, tokens);
    return { user: null, isNew: false, twoFactor: false };
  }
  const { user, isNew } = await resolveIdentity(ctx, provider, profile, tokens);
  // A provider is a first factor like a password: a user with two-factor on still owes the second step.
  const outcome = await finishFirstFactor(ctx, user, { method: "social", provider: provider.id, providerName: provider.name, newAccount: isNew });
  return { user, isNew, twoFactor: Boolean(outcome.twoFactorRedirect) };
}

/** The id-token path of /sign-in/social: a token the client obtained itself, verified against the provider's keys. */
export async function signInWithIdToken(ctx: RequestContext, providerId: string, idToken: { token: string; nonce?: string; accessToken?: string; refreshToken?: string; expiresAt?: number }) {
  const provider = providerFor(providerId);
  if (!provider.verifyIdToken) throw new AuthError("ID_TOKEN_NOT_SUPPORTED");
  // Signature, issuer, audience, expiry, and the nonce: required and equal when the token carries one (ADR 031).
  const profile = await provider.verifyIdToken(idToken.token, idToken.nonce);
  // A token is good for one sign-in: the same one again (replayed, or sent twice at once) is refused.
  if (!(await useIdTokenOnce(idToken.token))) throw new AuthError("INVALID_TOKEN");
  const tokens: ProviderTokens = {
    accessToken: idToken.accessToken ?? null,
    refreshToken: idToken.refreshToken ?? null,
    idToken: idToken.token,
    accessTokenExpiresAt: idToken.expiresAt ? new Date(idToken.expiresAt) : null,
    scopes: [],
  };
  const { user, isNew } = await resolveIdentity(ctx, provider, profile, tokens);
  const outcome = await finishFirstFactor(ctx, user, { method: "social", provider: provider.id, providerName: provider.name, newAccount: isNew });
  if (outcome.twoFactorRedirect) return outcome;
  return { redirect: false, token: outcome.session.token, url: null, user: publicUser(user) };
}

/**
 * Who a provider identity is: the user it is linked to; else the user with that address when the provider
 * vouches for it and that user's address is verified (or the provider is trusted), or a new user. An unverified
 * local account is never joined by an untrusted provider; a trusted one vouching for the address proves the
 * inbox, so a never-proven account is claimed first (everything set up before ends) unless `ctx` is the browser
 * that signed up. An address the provider does not vouch for joins no account at all, but may start a new,
 * unverified one (ADR 028 as amended by issue 37; unvouched.server.ts).
 */
export async function resolveIdentity(
  ctx: RequestContext,
  provider: SocialProvider,
  profile: SocialProfile,
  tokens: ProviderTokens,
): Promise<{ user: User; isNew: boolean }> {
  const linked = await db.account.findUnique({
    where: { providerId_accountId: { providerId: provider.id, accountId: profile.id } },
    include: { user: true },
  });
  if (linked) {
    // Conditional on the link still being there, after the user (and its credentials version) was read: an unlink
    // or a claim that committed in between is seen here, and one after it moved the version (ADR 055).
    const { count } = await db.account.updateMany({ where: { id: linked.id, userId: linked.userId }, data: accountTokenData(tokens) });
    if (count === 0) throw new AuthError("FAILED_TO_GET_USER_INFO");
    return { user: linked.user, isNew: false };
  }
  if (!profile.email) throw new AuthError("USER_EMAIL_NOT_FOUND");
  const email = normalizeEmail(profile.email);
  const existing = await db.user.findUnique({ where: { email } });
  // Anyone can type any address at a provider that does not vouch for it: such an address joins nothing, trusted
  // provider or not, and a new account from it starts unverified (the claim covers it like any unproven setup).
  if (!profile.emailVerified) return existing ? refuseToJoin(ctx, email) : createUser(ctx, provider, profile, tokens, email, false);
  if (existing) {
    const trusted = env.social.trustedProviders.includes(provider.id);
    if (!(existing.emailVerified || trusted)) throw new AuthError("ACCOUNT_NOT_LINKED");
    // Refused before the provider's proof claims it (issue 41): the door would refuse it after the claim.
    if (!existing.emailVerified && isBanned(existing)) throw new AuthError("BANNED_USER");
    const link = async (tx: Transaction) => {
      await tx.account.create({ data: { userId: existing.id, providerId: provider.id, accountId: profile.id, ...accountTokenData(tokens) } });
      // Joined by its verified address at sign-in: a new way in like a link made from the account page.
      await recordSecurityEvent(tx, { userId: existing.id, type: "account_linked", ctx, details: { provider: provider.id, providerName: provider.name, byAddress: true } });
    };
    try {
      // The provider proved the inbox: a never-proven account is claimed, then the identity joins it.
      const user = existing.emailVerified
        ? await db.$transaction(async (tx) => (await link(tx), existing))
        : (await proveInbox(ctx, existing.id, email, link)).user;
      return { user, isNew: false };
    } catch (error) {
      if (isUniqueViolation(error)) throw new AuthError("SOCIAL_ACCOUNT_ALREADY_LINKED");
      throw error;
    }
  }
  return createUser(ctx, provider, profile, tokens, email, true);
}

/** A new user with the identity linked: proven when the provider vouched for the address, else unverified. */
async function createUser(
  ctx: RequestContext,
  provider: SocialProvider,
  profile: SocialProfile,
  tokens: ProviderTokens,
  email: string,
  vouched: boolean,
): Promise<{ user: User; isNew: boolean }> {
  let user: User;
  try {
    user = await db.user.create({
      data: {
        id: newId(),
        name: (profile.name || email.split("@")[0]).slice(0, MAX_NAME_LENGTH),
        email,
        emailVerified: vouched,
        inboxProvenAt: vouched ? new Date() : null,
        locale: await languageOfSignInPage(ctx.request),
        image: profile.image && isSafeImageUrl(profile.image) ? profile.image : null,
        accounts: { create: { providerId: provider.id, accountId: profile.id, ...accountTokenData(tokens) } },
      },
    });
    metrics.signUp("social");
  } catch (error) {
    if (isUniqueViolation(error)) {
      // The same identity arriving twice at once: the unique indexes let one through; the other signs in.
      const again = await db.account.findUnique({ where: { providerId_accountId: { providerId: provider.id, accountId: profile.id } }, include: { user: true } });
      if (again) return { user: again.user, isNew: false };
      // Another sign-up took the address meanwhile: an unvouched address still joins nothing.
      if (!vouched) refuseToJoin(ctx, email);
    }
    throw new AuthError("FAILED_TO_CREATE_USER");
  }
  if (!vouched) welcomeUnverified(user);
  return { user, isNew: true };
}

/** The return of /link-social: the identity joins the signed-in user who started it, under the linking rules. */
async function linkIdentity(ctx: RequestContext, provider: SocialProvider, userId: string, profile: SocialProfile, tokens: ProviderTokens) {
  const current = await getSession(ctx);
  if (!current || current.user.id !== userId) throw new CallbackError("unable_to_link_account");
  const taken = await db.account.findUnique({ where: { providerId_accountId: { providerId: provider.id, accountId: profile.id } } });
  if (taken && taken.userId !== userId) throw new CallbackError("account_already_linked_to_different_user");
  if (taken) {
    await db.account.update({ where: { id: taken.id }, data: accountTokenData(tokens) });
    return;
  }
  const sameEmail = profile.email !== null && normalizeEmail(profile.email) === current.user.email;
  if (!sameEmail && !env.social.allowDifferentEmails) throw new AuthError("EMAIL_DOESNT_MATCH");
  // One account per provider per user.
  const other = await db.account.findFirst({ where: { userId, providerId: provider.id } });
  if (other) throw new CallbackError("account_already_linked");
  try {
    // A new way in: the owner is mailed once it and its event commit (ADR 030, 048; /link-social checked that
    // the sign-in was recent).
    await db.$transaction(async (tx) => {
      await tx.account.create({ data: { userId, providerId: provider.id, accountId: profile.id, ...accountTokenData(tokens) } });
      await recordSecurityEvent(tx, { userId, type: "account_linked", ctx, sessionId: current.session.id, details: { provider: provider.id, providerName: provider.name } });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new CallbackError("unable_to_link_account");
    throw error;
  }
}
