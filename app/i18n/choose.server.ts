// What the language rule needs from settings and a request without reading a session (the session layer itself
// calls this at sign-in and sign-up): the languages on offer, the picker's cookie, a signed-out request's choice.
import { cookieName, cookiesOfHeader, requestCookies, setCookie } from "~/auth/core/cookies.server";
import type { RequestContext } from "~/auth/request-context.server";
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
