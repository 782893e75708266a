// The one rule for a mail's language (issue 44): the recipient's saved language, else the operator's default
// (AUTH_DEFAULT_LANGUAGE) — for an address without an account too. Never the language of whoever caused the mail
// (an inviter, an administrator, the browser that asked for a reset or signed in), so nothing here reads a request.
import { db } from "~/db.server";
import { env } from "~/env.server";
import { languageOfAccount } from "~/i18n/choose.server";
import { translator, type Translator } from "~/i18n/format";

/** An address (its account's language, if it has one), or the account itself when the address is not its own. */
export type MailRecipient = string | { locale: string | null };

export async function mailLanguageFor(recipient: MailRecipient): Promise<string> {
  if (typeof recipient !== "string") return languageOfAccount(recipient);
  // Addresses are stored lowercased (normalizeEmail); a mail's `to` is one of them or a new address.
  const account = await db.user.findUnique({ where: { email: recipient.toLowerCase() }, select: { locale: true } });
  return languageOfAccount(account);
}

const translators = new Map<string, Translator>();
/**
 * The language's translator over the settings' catalogs (operators' overrides included). Not i18n.server's: that
 * one reads sessions for pages, and the session layer sends mail.
 */
export function mailTranslator(language: string): Translator {
  let found = translators.get(language);
  if (!found) {
    found = translator(language, env.i18n.messages[language] ?? env.i18n.messages[env.i18n.defaultLanguage]);
    translators.set(language, found);
  }
  return found;
}
