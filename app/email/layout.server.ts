// How every message the product sends is laid out, in the recipient's language (issue 44): a text and an HTML
// part, the product's name, one clear action link (absolute, built from BASE_URL) and how long that link lives.
// The HTML part is <html lang dir>; user-written names sit in <bdi>, addresses, URLs and codes in dir="ltr".
import type { MailContent } from "~/email/mailer.server";
import type { Translator, Values } from "~/i18n/format";

export const PRODUCT_NAME = "Latchkey";

export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** Words of a mail in both parts: plain text, and escaped HTML with names and addresses isolated. */
export interface Said {
  text: string;
  html: string;
}
export type MailValue = string | number | Said;

/** Longest user-written name a mail quotes; longer ones are cut (names are bounded at input too). */
const QUOTED_NAME_LENGTH = 100;

/**
 * A user-written name as mail text: control, format and bidirectional-override characters (stored before they
 * were refused, or from elsewhere) become spaces, runs of spaces one, and the result is bounded and put in
 * quotation marks, so it reads as a name and never as the service's own words.
 */
export function quotedName(name: string): string {
  const clean = name.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, " ").replace(/\s+/g, " ").trim();
  const bounded = [...clean].length > QUOTED_NAME_LENGTH ? `${[...clean].slice(0, QUOTED_NAME_LENGTH - 1).join("")}…` : clean;
  return `“${bounded}”`;
}

/** A user-written name, quoted, read in its own direction. */
export const name = (value: string): Said => {
  const quoted = quotedName(value);
  return { text: quoted, html: `<bdi>${escapeHtml(quoted)}</bdi>` };
};
/** A name this service chose or an administrator registered (a provider, an application): isolated, not quoted. */
export const isolated = (value: string): Said => ({ text: value, html: `<bdi>${escapeHtml(value)}</bdi>` });
/** An address, a URL, a code, a host: left to right in any language. */
export const ltr = (value: string): Said => ({ text: value, html: `<span dir="ltr">${escapeHtml(value)}</span>` });

/** Several pieces as the language lists them ("“Red” and “Blue”"). */
export function listOf(t: Translator, items: Said[]): Said {
  return { text: t.list(items.map((item) => item.text)), html: t.list(items.map((item) => item.html)) };
}

/** Pieces one after the other, as sentences. */
export const joined = (...parts: Said[]): Said => ({ text: parts.map((p) => p.text).join(" "), html: parts.map((p) => p.html).join(" ") });

// Private-use characters mark where a value's own HTML goes once the message around it is escaped.
const MARK = /\uE000(\d+)\uE001/g;

/** A catalog message in both parts: values given as Said keep their isolates in HTML. */
export function say(t: Translator, key: string, values: Record<string, MailValue> = {}): Said {
  const plain: Values = {};
  const marked: Values = {};
  const pieces: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    if (typeof value === "object") {
      plain[name] = value.text;
      marked[name] = `\uE000${pieces.push(value.html) - 1}\uE001`;
    } else {
      plain[name] = marked[name] = value;
    }
  }
  return { text: t.t(key, plain), html: escapeHtml(t.t(key, marked)).replace(MARK, (_, i: string) => pieces[Number(i)]) };
}

/** "1 hour", "24 hours", "10 minutes", by the language's plural rules. */
export function describeLifetime(t: Translator, seconds: number): string {
  if (seconds % 3600 === 0) return t.t("mail.lifetime.hours", { count: seconds / 3600 });
  if (seconds % 60 === 0) return t.t("mail.lifetime.minutes", { count: seconds / 60 });
  return t.t("mail.lifetime.seconds", { count: seconds });
}

/** "26 November 2026 at 13:00 UTC", "1. Dezember 2026 um 23:21 UTC": the same for every reader, whatever their time zone. */
export const describeMoment = (t: Translator, at: Date): string => t.dateTime(at);

export interface ActionMail {
  subject: string;
  intro: Said;
  /** The button and its address; absent for a notice with nothing to press (a suspended account). */
  action?: string;
  url?: string;
  /** How long the link works; absent for a plain link to a page. */
  lifetimeSeconds?: number;
  outro: Said;
  /** Security mails (ADR 048): a second link, to the account's activity page. */
  activityUrl?: string;
  /** A remedy that needs no sign-in (issue 41): the page to choose a new password from. */
  resetUrl?: string;
  /** The words give a time: said once below that times are UTC, the same for every reader (issue 41). */
  givesTime?: boolean;
}

/** The text part's lines, with runs of blank lines made one. */
const lines = (...all: string[]) => all.filter((line, i) => line || all[i - 1] !== "").join("\n");

const page = (t: Translator, body: string) =>
  `<!doctype html><html lang="${escapeHtml(t.lang)}" dir="${t.dir}"><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1b1b1f">
<p style="font-weight:700">${PRODUCT_NAME}</p>
${body}</body></html>`;

const subjectLine = (subject: string) => `${subject} · ${PRODUCT_NAME}`;

export function actionMail(t: Translator, { subject, intro, action, url, lifetimeSeconds, outro, activityUrl, resetUrl, givesTime }: ActionMail): MailContent {
  const lifetime = lifetimeSeconds ? t.t("mail.common.linkExpires", { lifetime: describeLifetime(t, lifetimeSeconds) }) : "";
  const activity = activityUrl ? t.t("mail.common.activity") : "";
  const reset = resetUrl ? t.t("mail.common.resetHere") : "";
  const utc = givesTime ? t.t("mail.common.timesUtc") : "";
  const button = action && url ? t.t("mail.common.actionLine", { action, url }) : "";
  const text = lines(PRODUCT_NAME, "", intro.text, "", button, "", lifetime, outro.text, "", reset && `${reset} ${resetUrl}`, activity && `${activity} ${activityUrl}`, utc, "");
  const small = (html: string, link?: string) =>
    `<p style="color:#62626e;font-size:.8rem">${html}${link ? ` <a href="${escapeHtml(link)}" dir="ltr">${escapeHtml(link)}</a>` : ""}</p>\n`;
  const html = page(
    t,
    `<p>${intro.html}</p>
${action && url ? `<p><a href="${escapeHtml(url)}" style="display:inline-block;padding:.5rem 1rem;background:#4646e6;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action)}</a></p>\n` : ""}<p style="color:#62626e;font-size:.9rem">${[escapeHtml(lifetime), outro.html].filter(Boolean).join(" ")}</p>
${url ? small(say(t, "mail.common.buttonFallback", { url: ltr(url) }).html) : ""}${reset ? small(escapeHtml(reset), resetUrl) : ""}${activity ? small(escapeHtml(activity), activityUrl) : ""}${utc ? small(escapeHtml(utc)) : ""}`,
  );
  return { subject: subjectLine(subject), text, html };
}

export interface CodeMail {
  subject: string;
  intro: Said;
  code: string;
  lifetimeSeconds: number;
  outro: Said;
  givesTime?: boolean;
}

/** A one-time code to type in (no link: the code is only useful where it was asked for). */
export function codeMail(t: Translator, { subject, intro, code, lifetimeSeconds, outro, givesTime }: CodeMail): MailContent {
  const lifetime = t.t("mail.common.codeExpires", { lifetime: describeLifetime(t, lifetimeSeconds) });
  const utc = givesTime ? t.t("mail.common.timesUtc") : "";
  const text = lines(PRODUCT_NAME, "", intro.text, "", t.t("mail.common.yourCode", { code }), "", lifetime, outro.text, "", utc, "");
  const html = page(
    t,
    `<p>${intro.html}</p>
<p dir="ltr" style="font-size:1.5rem;font-weight:700;letter-spacing:.2em">${escapeHtml(code)}</p>
<p style="color:#62626e;font-size:.9rem">${escapeHtml(lifetime)} ${outro.html}</p>
${utc ? `<p style="color:#62626e;font-size:.8rem">${escapeHtml(utc)}</p>\n` : ""}`,
  );
  return { subject: subjectLine(subject), text, html };
}

/** Paragraphs and, below them, a code (passkey sign-up's two messages). */
export function paragraphsMail(t: Translator, subject: string, paragraphs: Said[], code?: string): MailContent {
  const text = [PRODUCT_NAME, "", ...paragraphs.flatMap((p) => [p.text, ""]), ...(code ? [t.t("mail.common.yourCode", { code }), ""] : [])].join("\n");
  const html = page(
    t,
    `${paragraphs.map((p) => `<p>${p.html}</p>`).join("\n")}
${code ? `<p dir="ltr" style="font-size:1.5rem;font-weight:700;letter-spacing:.2em;font-family:ui-monospace,monospace">${escapeHtml(code)}</p>` : ""}
`,
  );
  return { subject: subjectLine(subject), text, html };
}
