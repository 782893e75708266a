// Messages, plurals, dates and lists in one language: the same code on the server and in the browser, so a page
// hydrates to the words the server wrote. Each message is compiled once (intl-messageformat) and kept.
import { cloneElement, isValidElement, type ReactNode } from "react";
import { IntlMessageFormat } from "intl-messageformat";
import { directionOf, type Direction } from "~/i18n/languages";
import { saidIndex } from "~/i18n/said";
import { sayClaim } from "~/i18n/said-claim";
import type { Messages, Value, Values } from "~/i18n/message-types";

export type { Messages, Value, Values } from "~/i18n/message-types";

/** Compiled messages by language and text: bounded by the catalogs themselves (their messages never change). */
const compiled = new Map<string, IntlMessageFormat>();

export function compile(language: string, message: string): IntlMessageFormat {
  const cacheKey = `${language}\u0000${message}`;
  let format = compiled.get(cacheKey);
  if (!format) {
    // ignoreTag: "<" in a message is text unless rich text asks for tags (richMessage below).
    format = new IntlMessageFormat(message, language, undefined, { ignoreTag: true });
    compiled.set(cacheKey, format);
  }
  return format;
}

const richCompiled = new Map<string, IntlMessageFormat>();
function compileRich(language: string, message: string): IntlMessageFormat {
  const cacheKey = `${language}\u0000${message}`;
  let format = richCompiled.get(cacheKey);
  if (!format) {
    format = new IntlMessageFormat(message, language);
    richCompiled.set(cacheKey, format);
  }
  return format;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export interface Translator {
  lang: string;
  dir: Direction;
  /** The message for `key` with its values; a key the catalog lacks shows as itself (a unit test keeps none). */
  t(key: string, values?: Values): string;
  /** Rich text: `<link>…</link>` in the message calls `tags.link(chunks)`. */
  rich(key: string, values: Values, tags: Record<string, (chunks: ReactNode[]) => ReactNode>): ReactNode[];
  /** "1 December 2026", in UTC. */
  date(date: Date): string;
  /** "1. Dezember 2026 um 23:21 UTC": a `<time>`'s title, and dates in mails. */
  dateTime(date: Date): string;
  /** "5 minutes ago", "yesterday" (Intl.RelativeTimeFormat), then the date. */
  relative(then: Date, now?: Date): string;
  /** "the password, 2 passkeys and the GitHub sign-in" (Intl.ListFormat); "unit" for values ("team:create, team:read"). */
  list(items: readonly string[], type?: "conjunction" | "disjunction" | "unit"): string;
  number(value: number): string;
  /** A device as the server describes it ("Chrome on Linux", app/auth/core/device.ts), composed in this language. */
  device(description: string): string;
  /** A sentence the code wrote in English (a field's rule, a refusal, a flash), in this language when it is known. */
  said(text: string): string;
}

const formatters = new Map<string, unknown>();
function cached<T>(key: string, make: () => T): T {
  let value = formatters.get(key) as T | undefined;
  if (!value) {
    value = make();
    formatters.set(key, value);
  }
  return value;
}

/** `source`: the shipped English "said.*" messages, the patterns `said` finds sentences by (none: shown as written). */
/**
 * The locale dates and numbers are written in: the language itself, but English as the pages always wrote it
 * ("1 December 2026 at 23:21", day first, a 24-hour clock), not the United States' "December 1, 2026 at 11:21 PM".
 */
export const formattingLocale = (lang: string) => (lang === "en" ? "en-GB" : lang);

export function translator(lang: string, messages: Messages, source?: Messages): Translator {
  const locale = formattingLocale(lang);
  const dateFormat = () => cached(`${lang}:date`, () => new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }));
  const dateTimeFormat = () =>
    cached(`${lang}:dateTime`, () => new Intl.DateTimeFormat(locale, { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }));
  const relativeFormat = () => cached(`${lang}:relative`, () => new Intl.RelativeTimeFormat(locale, { numeric: "auto" }));
  const self: Translator = {
    lang,
    dir: directionOf(lang),
    t(key, values) {
      const message = messages[key];
      if (message === undefined) return key;
      return String(compile(lang, message).format(values as Record<string, string | number>));
    },
    rich(key, values, tags) {
      const message = messages[key];
      if (message === undefined) return [key];
      const result = compileRich(lang, message).format({ ...values, ...tags } as never);
      // Each element keyed by its place: a tag used twice ("<ltr>{email}</ltr>" in two places) stays two children.
      return (Array.isArray(result) ? result : [result]).map((part, index) => (isValidElement(part) ? cloneElement(part, { key: index }) : part)) as ReactNode[];
    },
    date: (date) => dateFormat().format(date),
    dateTime: (date) => self.t("common.dateTimeUtc", { dateTime: dateTimeFormat().format(date) }),
    relative(then, now = new Date()) {
      const seconds = Math.max(0, Math.round((now.getTime() - then.getTime()) / 1000));
      if (seconds < 45) return self.t("common.justNow");
      if (seconds < 3600) return relativeFormat().format(-Math.max(1, Math.round(seconds / 60)), "minute");
      if (seconds < 86_400) return relativeFormat().format(-Math.round(seconds / 3600), "hour");
      if (seconds < 30 * 86_400) return relativeFormat().format(-Math.max(1, Math.floor(seconds / 86_400)), "day");
      return self.t("common.onDate", { date: self.date(then) });
    },
    list: (items, type = "conjunction") => cached(`${lang}:list:${type}`, () => new Intl.ListFormat(locale, { type })).format(items),
    number: (value) => cached(`${lang}:number`, () => new Intl.NumberFormat(locale)).format(value),
    device(description) {
      if (description === "Unknown device") return self.t("device.unknown");
      const at = description.indexOf(" on ");
      if (at < 0) return description;
      return self.t("device.browserOnSystem", { browser: description.slice(0, at), system: description.slice(at + " on ".length) });
    },
    said(text) {
      if (!source) return text;
      const claim = sayClaim(text, source, self);
      if (claim !== null) return claim;
      const found = saidIndex(source).find(text);
      if (!found) return text;
      try {
        return self.t(found.key, found.values);
      } catch {
        return text; // a value the pattern could not supply: the English is still true
      }
    },
  };
  return self;
}

/** Whole days between two calendar dates in UTC (an expiry "tomorrow" is one). */
export const daysBetween = (from: Date, to: Date) => Math.floor(to.getTime() / DAY_MS) - Math.floor(from.getTime() / DAY_MS);
