// AUTH_TRANSLATE_API_ERRORS=on: what Better Auth does with @better-auth/i18n installed. The same `code`, `message`
// in the request's language (a signed-in caller's saved language first, then the rule every page uses), and
// `originalMessage` with the English one. Off (the default), nothing here runs: clients that compare messages keep
// the specification's English. The words start from @better-auth/i18n's locales where Better Auth has the code
// (MIT, © 2024 - present Bereket Engida; see app/i18n/messages/NOTICE.md).
import type { AppLoadContext } from "@remix-run/node";
import { AuthError, ERRORS, type ErrorName } from "~/auth/errors";
import { env } from "~/env.server";
import { knownError } from "~/http/known-error.server";
import { languageOfRequest, languageWithoutAccount, messagesOf, translatorFor } from "~/i18n/i18n.server";
import { SOURCE_LANGUAGE } from "~/i18n/languages";

/** The error as the API answers it: translated when the setting is on and the catalog has its code. */
export async function inRequestLanguage(error: unknown, request: Request, context: AppLoadContext | undefined): Promise<unknown> {
  if (env.AUTH_TRANSLATE_API_ERRORS !== "on") return error;
  const known = knownError(error);
  if (!known) return error;
  const language = await languageOfRequest(request, context).catch(() => languageWithoutAccount(request));
  const key = `apiError.${known.code}`;
  const message = messagesOf(language)[key];
  if (message === undefined) return known;
  const words = translatorFor(language).t(key);
  // English as shipped says what the catalogue says: a more specific message (which fields failed) is kept.
  const standard = (ERRORS as Record<string, readonly [number, string] | undefined>)[known.code]?.[1];
  if (language === SOURCE_LANGUAGE && words === standard) return known;
  return new AuthError(known.code as ErrorName, {
    message: words,
    headers: known.headers,
    reason: known.reason,
    extra: { ...known.extra, originalMessage: known.message },
  });
}
