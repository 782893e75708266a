// The claim notice (ADR 028, app/http/page-messages.server.ts claimNotice) in the page's language. It is one English
// sentence with a list inside a list ("…until now: the password, 2 passkeys and the GitHub and Google sign-ins."),
// often after another sentence ("You joined Acme. This email address…"), which no single pattern can take apart.
// So it is read here in three steps: what comes before it (said as usual), the list's items (each an English
// `said.claim.*` pattern, adjacent pieces joined until they make one, so a list of providers inside an item stays
// whole), and the way on after it; then said again with the language's own list (Intl.ListFormat).
import type { Messages, Values } from "~/i18n/message-types";
import { saidIndex } from "~/i18n/said";

/** What of a translator this needs (format.ts's Translator has it; named here so neither imports the other). */
interface Translator {
  t(key: string, values?: Values): string;
  list(items: readonly string[]): string;
  said(text: string): string;
}

const ITEM_KEYS = ["said.claim.password", "said.claim.passkeys", "said.claim.twoFactor", "said.claim.provider", "said.claim.providers", "said.claim.sessions", "said.claim.applications"];

/** The text with its claim notice in `t`'s language; null when the text holds no claim notice. */
export function sayClaim(text: string, source: Messages, t: Translator): string | null {
  const removed = source["said.claim.removed"];
  if (!removed) return null;
  const lead = removed.slice(0, removed.indexOf("{items}"));
  const at = text.indexOf(lead);
  if (at < 0) return null;
  const before = text.slice(0, at).trim();
  const rest = text.slice(at + lead.length);
  const end = rest.indexOf(". ");
  const itemsText = end < 0 ? rest.replace(/\.$/, "") : rest.slice(0, end);
  const after = end < 0 ? "" : rest.slice(end + 2).trim();
  const items = itemsOf(itemsText, source, t);
  if (!items) return null;
  const claim = t.t("said.claim.removed", { items: t.list(items) });
  return [before ? t.said(before) : "", claim, after ? t.said(after) : ""].filter(Boolean).join(" ");
}

/** "the password, 2 passkeys and the GitHub and Google sign-ins" → each item in `t`'s language, or null. */
function itemsOf(list: string, source: Messages, t: Translator): string[] | null {
  const itemIndex = saidIndex(Object.fromEntries(ITEM_KEYS.filter((key) => source[key]).map((key) => [key, source[key]])));
  const pieces = list.split(/(, | and )/);
  const items: string[] = [];
  for (let start = 0; start < pieces.length; start += 2) {
    let found = null;
    let stop = start;
    // The shortest run of pieces that is one item: "the GitHub and Google sign-ins" is one (neither "the GitHub"
    // nor "Google sign-ins" is an item), and "the password" is one before the next piece is looked at.
    for (let end = start; end < pieces.length && !found; end += 2) {
      found = itemIndex.find(pieces.slice(start, end + 1).join(""));
      stop = end;
    }
    if (!found) return null;
    const values = { ...found.values };
    if (typeof values.providers === "string") values.providers = t.list(values.providers.split(/, | and /));
    items.push(t.t(found.key, values));
    start = stop;
  }
  return items;
}
