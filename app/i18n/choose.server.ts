// What the language rule needs from settings and a request without reading a session (the session layer itself
// calls this at sign-in and sign-up): the languages on offer, the picker's cookie, a signed-out request's choice.
import { cookieName, cookiesOfHeader, requestCookies, setCookie } from "~/auth/core/cookies.server";
import type { RequestContext } from "~/auth/request-context.server";
import { db } from "~/db.server";
import { env } from "~/env.server";
import { chooseLanguage } from "~/i18n/negotiate";

export const LANGUAGE_COOKIE = cookieName("language");
export const LANGUAGE_COOKIE_SECONDS = 365 * 24 * 60 * 60;

export const offeredLanguages = (): readonly string[] => env.i18n.languages;
export const isOffered = (tag: unknown): tag is string => typeof tag === "string" && env.i18n.languages.includes(tag);

/** The rule without an account: the picker's cookie, ui_locales, Accept-Language, the operator's default. */
export function languageWithoutAccount(request: Request, uiLocales?: string | null): string {
  return chooseLanguage(
    { cookie: requestCookies(request)[LANGUAGE_COOKIE], uiLocales, acceptLanguage: request.headers.get("accept-language") },
    env.i18n.languages,
    env.i18n.defaultLanguage,
  );
}

/**
 * The language a sign-up or sign-in page was shown in, for the account it saves it to: the rule without an account,
 * an application's ui_locales included while its sign-in request waits behind the page (?redirectTo= to it), so
 * someone who signs up on a French page for that application reads its consent page in French too.
 */
export async function languageOfSignInPage(request: Request): Promise<string> {
  // Imported when needed: the OpenID provider's modules import the session layer, which imports this one.
  const { uiLocalesWaitingAt } = await import("~/auth/oidc-provider/interaction.server");
  const uiLocales = await uiLocalesWaitingAt(new URL(request.url)).catch(() => null);
  return languageWithoutAccount(request, uiLocales);
}

/** The same from bare headers, for the server's own refusals before any page runs (server/refusal.mjs). */
export function languageOfHeaders(cookieHeader: string | undefined, acceptLanguage: string | undefined): string {
  return chooseLanguage({ cookie: cookiesOfHeader(cookieHeader)[LANGUAGE_COOKIE], acceptLanguage }, env.i18n.languages, env.i18n.defaultLanguage);
}

/** The picker's cookie: a year, HttpOnly, SameSite=Lax (cookies.server.ts sets every cookie that way). */
export function setLanguageCookie(ctx: RequestContext, language: string): void {
  setCookie(ctx, LANGUAGE_COOKIE, language, LANGUAGE_COOKIE_SECONDS);
}

/** An account's language: its saved one while on offer, else the operator's default (mail to it, ADR 072). */
export function languageOfAccount(user: { locale?: string | null } | null | undefined): string {
  return isOffered(user?.locale) ? user.locale : env.i18n.defaultLanguage;
}

/**
 * Issue 44: an account without a language (made before there were any) gets the one it signs in with, and the
 * picker's cookie follows the account's, so signing out later does not switch languages under the person.
 */
export async function keepLanguage<U extends { id: string; locale: string | null }>(ctx: RequestContext, user: U): Promise<U> {
  let kept = user;
  if (user.locale === null) {
    const locale = await languageOfSignInPage(ctx.request);
    await db.user.updateMany({ where: { id: user.id, locale: null }, data: { locale } });
    kept = { ...user, locale };
  }
  setLanguageCookie(ctx, languageOfAccount(kept));
  return kept;
}
