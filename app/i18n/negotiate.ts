// The one rule that picks a language, for pages, mails and the API alike (issue 44): the account's saved language,
// then the picker's cookie, then an OpenID application's ui_locales, then Accept-Language, then the operator's
// default. Pure, so the unit tests hold the order; i18n.server.ts feeds it a request.
import Negotiator from "negotiator";

export interface LanguageSignals {
  /** The signed-in account's saved language (an admin acting as someone: the admin's). */
  saved?: string | null;
  /** The language picker's cookie. */
  cookie?: string | null;
  /** OpenID's ui_locales: space-separated tags, most wanted first. */
  uiLocales?: string | null;
  acceptLanguage?: string | null;
}

/** The tag on offer that `wanted` names, itself or by its language ("de-AT" is "de", "es-419" is "es"). */
function onOffer(wanted: string, offer: readonly string[]): string | null {
  const lower = wanted.trim().toLowerCase();
  if (!lower) return null;
  const exact = offer.find((tag) => tag.toLowerCase() === lower);
  if (exact) return exact;
  const base = lower.split("-")[0];
  return offer.find((tag) => tag.toLowerCase() === base) ?? null;
}

/** Accept-Language's first language on offer: q-values honoured, q=0 excluded, regions to their language. */
export function fromAcceptLanguage(header: string, offer: readonly string[]): string | null {
  // "*" names no language: someone who would take any gets the operator's default, not the first in the list.
  const named = header
    .split(",")
    .filter((range) => range.split(";")[0].trim() !== "*")
    .join(",");
  if (!named.trim()) return null;
  const [best] = new Negotiator({ headers: { "accept-language": named } }).languages([...offer]);
  return best ?? null;
}

export function chooseLanguage(signals: LanguageSignals, offer: readonly string[], fallback: string): string {
  const saved = signals.saved ? onOffer(signals.saved, offer) : null;
  if (saved) return saved;
  // Only an exact tag on offer: a cookie is ours, and anything else in it was written by someone else.
  const cookie = signals.cookie ? offer.find((tag) => tag === signals.cookie) : undefined;
  if (cookie) return cookie;
  for (const wanted of (signals.uiLocales ?? "").split(/\s+/).slice(0, 20)) {
    const match = onOffer(wanted, offer);
    if (match) return match;
  }
  const accepted = signals.acceptLanguage ? fromAcceptLanguage(signals.acceptLanguage.slice(0, 1000), offer) : null;
  return accepted ?? fallback;
}
