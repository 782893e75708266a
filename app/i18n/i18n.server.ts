// Languages for a request, an account or a mail: the settings' catalogs (checked at start-up, catalogs.server.ts)
// and the one rule (negotiate.ts) fed from the request. docs/decisions/072-languages.md.
import type { AppLoadContext } from "@remix-run/node";
import { requestCookies } from "~/auth/core/cookies.server";
import { db } from "~/db.server";
import { env } from "~/env.server";
import { lookAtSession } from "~/http/page-session.server";
import { translator, type Messages, type Translator } from "~/i18n/format";
import { SHIPPED_CATALOGS } from "~/i18n/catalogs.server";
import { directionOf, nativeNameOf, SOURCE_LANGUAGE, type Direction } from "~/i18n/languages";
import { LANGUAGE_COOKIE } from "~/i18n/choose.server";
import { chooseLanguage } from "~/i18n/negotiate";
import { rememberPageMessages } from "~/i18n/page-messages";

export { isOffered, LANGUAGE_COOKIE, languageOfAccount, languageWithoutAccount, offeredLanguages, setLanguageCookie } from "~/i18n/choose.server";

export function messagesOf(language: string): Messages {
  return env.i18n.messages[language] ?? env.i18n.messages[env.i18n.defaultLanguage];
}

const translators = new Map<string, Translator>();
export function translatorFor(language: string): Translator {
  let found = translators.get(language);
  if (!found) {
    found = translator(language, messagesOf(language), language === SOURCE_LANGUAGE ? undefined : saidSource());
    translators.set(language, found);
  }
  return found;
}

/** The account's own saved language while signed in; an admin acting as someone reads in the admin's. */
async function savedLanguage(request: Request, loadContext: AppLoadContext | undefined): Promise<string | null> {
  const current = await lookAtSession(request, loadContext).catch(() => null);
  if (!current) return null;
  const actingAdmin = current.session.impersonatedBy;
  if (!actingAdmin) return current.user.locale ?? null;
  const admin = await db.user.findUnique({ where: { id: actingAdmin }, select: { locale: true } });
  return admin?.locale ?? null;
}

/** The request's language, by the one rule: saved, picker cookie, ui_locales, Accept-Language, default. */
export async function languageOfRequest(
  request: Request,
  loadContext: AppLoadContext | undefined,
  options: { uiLocales?: string | null; saved?: string | null } = {},
): Promise<string> {
  const saved = options.saved !== undefined ? options.saved : await savedLanguage(request, loadContext);
  return chooseLanguage(
    {
      saved,
      cookie: requestCookies(request)[LANGUAGE_COOKIE],
      uiLocales: options.uiLocales,
      acceptLanguage: request.headers.get("accept-language"),
    },
    env.i18n.languages,
    env.i18n.defaultLanguage,
  );
}

/** What the root loader hands down at every navigation: the language, not its messages (ADR 073). */
export interface LanguageChoice {
  lang: string;
  dir: Direction;
  /** The picker's list: each language named in itself. */
  offered: { tag: string; name: string; dir: Direction }[];
}

export interface PageLanguage extends LanguageChoice {
  /** The messages pages use (mail and API keys stay on the server). */
  messages: Messages;
  /** The shipped English of the "said.*" sentences, to find the code's English by (other languages only). */
  source?: Messages;
}

const pageMessages = new Map<string, Messages>();
let said: Messages | undefined;
/** The code writes the shipped English: an operator's English override changes what is shown, not what is written. */
function saidSource(): Messages {
  said ??= Object.fromEntries(Object.entries(SHIPPED_CATALOGS[SOURCE_LANGUAGE]).filter(([key]) => key.startsWith("said.")));
  return said;
}
/** The language and its messages, for a page the server writes (the messages registered for the document). */
export function pageLanguage(language: string): PageLanguage {
  let messages = pageMessages.get(language);
  if (!messages) {
    messages = Object.fromEntries(Object.entries(messagesOf(language)).filter(([key]) => !key.startsWith("mail.") && !key.startsWith("apiError.")));
    pageMessages.set(language, messages);
    // For the root's component and `meta`, which write them into the document once (page-messages.tsx).
    rememberPageMessages({ lang: language, messages, ...(language === SOURCE_LANGUAGE ? {} : { source: saidSource() }) });
  }
  return {
    lang: language,
    dir: directionOf(language),
    messages,
    ...(language === SOURCE_LANGUAGE ? {} : { source: saidSource() }),
    offered: env.i18n.languages.map((tag) => ({ tag, name: nativeNameOf(tag), dir: directionOf(tag) })),
  };
}

/** What the root loader hands down: the language without its messages, which the document carries once. */
export function languageChoice(language: string): LanguageChoice {
  const { lang, dir, offered } = pageLanguage(language);
  return { lang, dir, offered };
}
