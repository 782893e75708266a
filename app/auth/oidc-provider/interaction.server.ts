// The person's side of an authorization request (the page app/routes/oauth2.interaction.$uid.tsx): sign-in is
// Latchkey's own /sign-in, which returns here; then consent, unless remembered or the application is trusted.
// The provider's interaction is read and answered through its own models, as its interactionResult does.
import { requestCookies } from "~/auth/core/cookies.server";
import type { RequestContext } from "~/auth/request-context.server";
import { confirmItsYouUrl, recentlyVerified } from "~/auth/step-up/recently-verified.server";
import type { SessionWithUser } from "~/auth/session/sessions.server";
import { mayReceiveTokens } from "./accounts.server";
import { firstStoredAt } from "./adapter.server";
import { findClient } from "./clients.server";
import { rememberConsent } from "./consent.server";
import { INTERACTION_COOKIE_PREFIX, INTERACTION_PAGE, OIDC_SCOPES } from "./constants";
import { oidcProvider } from "./provider.server";

/* eslint-disable @typescript-eslint/no-explicit-any -- oidc-provider's models are untyped (oidc-provider.d.ts) */
type Interaction = any;

export type InteractionStep =
  /** Unknown, expired, or started in another browser. */
  | { step: "expired" }
  /** Somewhere to send the browser: /sign-in, or back to the provider to go on. */
  | { step: "redirect"; to: string }
  /**
   * The consent page: the application, the account it would get (so someone signed in as somebody else can
   * switch), and where the answer sends the browser (the redirect URI's host, e.g. "wiki.example.com").
   */
  | {
      step: "consent";
      clientName: string;
      /** The application's own site, as registered (OpenID's client_uri); null when none was given. */
      clientSite: string | null;
      scopes: string[];
      newScopes: string[];
      account: { name: string; email: string };
      returnsTo: string | null;
    }
  /**
   * An admin acting as the person (impersonation): no application is let in as them, neither by consent nor by
   * a consent remembered before. The request stays open, so after "Stop" the admin may sign in as themselves.
   */
  | { step: "impersonating"; name: string; email: string };

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * The interaction, if this browser started it. The provider's answer that sent the browser here set a cookie
 * naming the interaction; without it, someone else's sign-in request (its address sent to this person) could be
 * answered with this person's account.
 */
async function interactionFor(request: Request, uid: string): Promise<Interaction | null> {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(uid) || requestCookies(request)[`${INTERACTION_COOKIE_PREFIX}${uid}`] !== "1") return null;
  const provider = await oidcProvider();
  const interaction = await provider.Interaction.find(uid);
  return interaction && interaction.exp > nowSeconds() ? interaction : null;
}

/**
 * The application a sign-in page is for, when it returns to an open interaction page: the sign-in page says "to
 * continue to Team Wiki". Null for any other address. The interaction's cookie is scoped to the interaction pages,
 * so /sign-in cannot check the browser; naming the application tells nothing that the application's own
 * authorization request (anyone can start one) does not, and only the browser it was sent to can answer it.
 */
export async function applicationWaitingAt(redirectTo: string | null): Promise<string | null> {
  const uid = redirectTo?.startsWith(`${INTERACTION_PAGE}/`) ? redirectTo.slice(INTERACTION_PAGE.length + 1) : "";
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(uid)) return null;
  const interaction: Interaction = await (await oidcProvider()).Interaction.find(uid);
  if (!interaction || interaction.exp <= nowSeconds()) return null;
  return (await findClient(String(interaction.params.client_id)))?.name ?? null;
}

/**
 * The application's OpenID `ui_locales` while its sign-in request waits behind this page (the interaction page
 * itself, or a page with `redirectTo` to it): the languages it asked its pages in (issue 44), or null.
 */
export async function uiLocalesWaitingAt(url: URL): Promise<string | null> {
  const target = url.pathname.startsWith(`${INTERACTION_PAGE}/`) ? url.pathname : url.searchParams.get("redirectTo");
  const uid = target?.startsWith(`${INTERACTION_PAGE}/`) ? target.slice(INTERACTION_PAGE.length + 1) : "";
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(uid)) return null;
  const interaction: Interaction = await (await oidcProvider()).Interaction.find(uid);
  if (!interaction || interaction.exp <= nowSeconds()) return null;
  const wanted = interaction.params.ui_locales;
  return typeof wanted === "string" ? wanted.slice(0, 200) : null;
}

/** The host the application asked to be answered at ("wiki.example.com"), for the person to read. */
function redirectHost(interaction: Interaction): string | null {
  try {
    return new URL(String(interaction.params.redirect_uri)).host || null;
  } catch {
    return null;
  }
}

/**
 * Someone else now signed in to this browser than the account the provider's session holds (they chose "Not you?"
 * on the consent page, or signed out and in as another): the provider's session of the other account ends, so the
 * answer below signs in the current one instead of the provider stopping to ask to sign the other out.
 */
async function forgetOtherAccount(interaction: Interaction): Promise<void> {
  const uid = interaction.session?.uid;
  if (uid) await (await (await oidcProvider()).Session.findByUid(uid))?.destroy();
  interaction.session = undefined;
}

/** Stores the answer and gives the address that hands it to the provider. */
async function finish(interaction: Interaction, result: Record<string, unknown>): Promise<string> {
  interaction.result = "error" in result ? result : { ...interaction.lastSubmission, ...result };
  await interaction.save(interaction.exp - nowSeconds());
  return interaction.returnTo;
}

const refused = (interaction: Interaction, description: string) => finish(interaction, { error: "access_denied", error_description: description });

function signInAgain(uid: string, interaction: Interaction, reauthenticate: boolean): InteractionStep {
  const query = new URLSearchParams({ redirectTo: `${INTERACTION_PAGE}/${uid}` });
  if (reauthenticate) query.set("reauthenticate", "1");
  const hint = interaction.params.login_hint;
  if (!reauthenticate && typeof hint === "string" && hint.includes("@") && hint.length <= 254) query.set("email", hint);
  return { step: "redirect", to: `/sign-in?${query}` };
}

/** Scopes the request asks for that this provider knows, in a fixed order. */
function requestedScopes(interaction: Interaction): string[] {
  const asked = new Set(String(interaction.params.scope ?? "").split(" "));
  return OIDC_SCOPES.filter((scope) => asked.has(scope));
}

/** The scopes this answer would add to the person's grant: those the provider found missing. */
function scopesToGrant(interaction: Interaction): string[] {
  return interaction.prompt.details?.missingOIDCScope ?? requestedScopes(interaction);
}

/**
 * `offline_access` gives the application a refresh token that outlives every session: a new way in, so it needs
 * a recent sign-in like a passkey or a linked account (ADR 030), and the owner is mailed (ADR 055).
 */
const grantsLastingAccess = (interaction: Interaction) => scopesToGrant(interaction).includes("offline_access");

/** What the page does with a request: send the browser on, or ask for consent. */
export async function interactionStep(ctx: RequestContext, uid: string, current: SessionWithUser | null): Promise<InteractionStep> {
  const interaction = await interactionFor(ctx.request, uid);
  if (!interaction) return { step: "expired" };
  if (current?.session.impersonatedBy) return { step: "impersonating", name: current.user.name, email: current.user.email };
  const otherAccount = current !== null && interaction.session?.accountId !== undefined && interaction.session.accountId !== current.user.id;
  if (interaction.prompt.name === "login" || otherAccount) {
    if (!current) return signInAgain(uid, interaction, false);
    // prompt=login and max_age want a sign-in made for this request, or recent enough.
    const signedInAt = current.session.createdAt.getTime();
    const maxAge = Number(interaction.params.max_age);
    const forced = interaction.prompt.reasons.includes("login_prompt") || Number.isFinite(maxAge);
    const recentEnough = Number.isFinite(maxAge) && Date.now() - signedInAt <= maxAge * 1000;
    if (forced && !recentEnough) {
      // A sign-in made after the request began counts (to the millisecond: a sign-in in the same second as the
      // request, but before it, does not).
      const requestedAt = (await firstStoredAt("Interaction", uid))?.getTime() ?? interaction.iat * 1000;
      if (signedInAt < requestedAt) return signInAgain(uid, interaction, true);
    }
    if (!mayReceiveTokens(current.user)) return { step: "redirect", to: await refused(interaction, "this account may not sign in to applications") };
    const login = { accountId: current.user.id, ts: Math.floor(signedInAt / 1000), remember: current.session.rememberMe };
    if (otherAccount) await forgetOtherAccount(interaction);
    return { step: "redirect", to: await finish(interaction, { login }) };
  }
  // Consent: for the account the provider signed in.
  if (!current || current.user.id !== interaction.session?.accountId) return signInAgain(uid, interaction, false);
  if (!mayReceiveTokens(current.user)) return { step: "redirect", to: await refused(interaction, "this account may not sign in to applications") };
  const client = await findClient(String(interaction.params.client_id));
  if (!client) return { step: "redirect", to: await refused(interaction, "the application is no longer registered") };
  // A lasting grant is a new way in (ADR 030): confirm it's you first (ADR 059), then this page asks again.
  if (grantsLastingAccess(interaction) && !recentlyVerified(current.session)) return { step: "redirect", to: confirmItsYouUrl(`${INTERACTION_PAGE}/${uid}`) };
  if (client.trusted) return { step: "redirect", to: await allow(ctx, interaction, current.user.id, client.id) };
  const scopes = requestedScopes(interaction);
  const missing = new Set<string>(interaction.prompt.details.missingOIDCScope ?? scopes);
  return {
    step: "consent",
    clientName: client.name,
    clientSite: client.homepageUrl,
    scopes,
    newScopes: scopes.filter((scope) => missing.has(scope)),
    account: { name: current.user.name, email: current.user.email },
    returnsTo: redirectHost(interaction),
  };
}

/** The consent page's answer: where the browser goes next (back to the application, with a code or access_denied). */
export async function answerConsent(ctx: RequestContext, uid: string, current: SessionWithUser, allowed: boolean): Promise<string | null> {
  // The page pipeline refuses an impersonator's answer first (impersonation-guard.server.ts); this is the rule's
  // second half for any other caller.
  if (current.session.impersonatedBy) return null;
  const interaction = await interactionFor(ctx.request, uid);
  if (!interaction || interaction.prompt.name !== "consent" || interaction.session?.accountId !== current.user.id) return null;
  if (!allowed) return refused(interaction, "the person did not allow access");
  if (!mayReceiveTokens(current.user)) return refused(interaction, "this account may not sign in to applications");
  // The page was shown in time but answered after the window: confirm it's you, then the page asks again.
  if (grantsLastingAccess(interaction) && !recentlyVerified(current.session)) return confirmItsYouUrl(`${INTERACTION_PAGE}/${uid}`);
  return allow(ctx, interaction, current.user.id, String(interaction.params.client_id));
}

/** Adds what the request asks for to the person's grant for the application, and remembers it. */
async function allow(ctx: RequestContext, interaction: Interaction, accountId: string, clientId: string): Promise<string> {
  const { Grant } = await oidcProvider();
  let grant = interaction.grantId ? await Grant.find(interaction.grantId) : undefined;
  if (!grant || grant.accountId !== accountId || grant.clientId !== clientId) grant = new Grant({ accountId, clientId });
  const details = interaction.prompt.details ?? {};
  const lastingAccess = grantsLastingAccess(interaction);
  if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(" "));
  if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(details.missingResourceScopes ?? {})) grant.addResourceScope(indicator, (scopes as string[]).join(" "));
  const grantId: string = await grant.save();
  await rememberConsent(ctx, accountId, clientId, requestedScopes(interaction), grantId, { lastingAccess });
  return finish(interaction, { consent: { grantId } });
}
