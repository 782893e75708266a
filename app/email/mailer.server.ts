// Outgoing mail. With SMTP_URL, nodemailer delivers it. Without, each message is written to the server log
// (with its link, so a fresh `npm start` can finish every flow) and, on a localhost BASE_URL, kept for the
// /dev/outbox page. A failed send is always logged; callers choose whether the user may be told.
import { AuthError } from "~/auth/errors";
import { takeFromQuota, tooManyRequests } from "~/auth/rate-limit/limits.server";
import { mailLanguageFor, mailTranslator, type MailRecipient } from "~/email/language.server";
import { env } from "~/env.server";
import type { Translator } from "~/i18n/format";
import { metrics } from "~/observability/metrics.server";

/** A message's words in one language. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

/**
 * A message before its language is known: `write` words it once sendMail has found the recipient's language
 * (issue 44: the recipient's, never that of whoever caused the mail).
 */
export interface MailDraft {
  to: string;
  write(t: Translator): MailContent;
  /** The template's name (`withKinds`): latchkey_mails_total's `kind`, and what a log line says instead of the address. */
  kind?: string;
  /** Whose language when `to` is not the account's address (any more): a notice to an address just replaced. */
  recipient?: MailRecipient;
}

/** A message as sent: written in `language`, which its Content-Language header names. */
export interface MailMessage extends MailContent {
  to: string;
  language: string;
  kind?: string;
}

/** Each template's drafts carry its name as their `kind`; `prefix` names a family ("passkeySignUp" + "Code"). */
export function withKinds<T extends Record<string, (...args: never[]) => MailDraft>>(templates: T, prefix = ""): T {
  const kindOf = (name: string) => (prefix ? `${prefix}${name[0].toUpperCase()}${name.slice(1)}` : name);
  return Object.fromEntries(
    Object.entries(templates).map(([name, make]) => [name, (...args: never[]) => ({ ...make(...args), kind: kindOf(name) })]),
  ) as T;
}

export interface OutboxEntry extends MailMessage {
  sentAt: Date;
}

/** The draft written in `language` (a translator per language, operators' overrides included). */
export function writeMail(draft: MailDraft, language: string): MailMessage {
  return { to: draft.to, language, ...draft.write(mailTranslator(language)) };
}

/** What nodemailer is handed: the parts, and the language they are in as Content-Language. */
export function smtpMessage({ language, kind: _kind, ...content }: MailMessage) {
  return { ...content, headers: { "Content-Language": language } };
}

const OUTBOX_SIZE = 50;
const outbox: OutboxEntry[] = [];
/** nodemailer is loaded only where SMTP is configured, from start-up (docs/decisions/026-load-what-is-used.md). */
const smtp = env.SMTP_URL
  ? import("nodemailer").then(({ default: nodemailer }) => nodemailer.createTransport(env.SMTP_URL!, { from: env.MAIL_FROM }))
  : null;
// A transport that cannot be made fails each send (502), as it did when made at the first send; not the process.
smtp?.catch(() => {});

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;
const FORWARDING_HEADERS = ["forwarded", "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-real-ip", "via"];

/**
 * The outbox holds live reset and verification links, so only a developer on the machine itself may read it:
 * outbox mode (localhost BASE_URL, no SMTP), a loopback TCP peer, the Host that BASE_URL names, and no
 * forwarding header at all — a local tunnel or reverse proxy also connects from 127.0.0.1, and a spoofed
 * X-Forwarded-For must not matter.
 */
export function mayReadLocalOutbox(request: Request, peerAddress: string | undefined): boolean {
  if (!env.localOutbox || !LOOPBACK.test(peerAddress ?? "")) return false;
  if (request.headers.get("host") !== new URL(env.BASE_URL).host) return false;
  return FORWARDING_HEADERS.every((name) => !request.headers.has(name));
}

/** Messages sent without an SMTP server, newest first (the /dev/outbox page). */
export function localOutbox(): readonly OutboxEntry[] {
  return outbox;
}

async function deliver(message: MailMessage): Promise<void> {
  if (smtp) {
    await (await smtp).sendMail({ from: env.MAIL_FROM, ...smtpMessage(message) });
    return;
  }
  // Written as it always was, not as a log line: a developer reads and follows it (issue 40's documented exception).
  process.stdout.write(`[latchkey] mail to ${message.to}: ${message.subject}\n${message.text}\n\n`);
  if (env.localOutbox) {
    outbox.unshift({ ...message, sentAt: new Date() });
    outbox.length = Math.min(outbox.length, OUTBOX_SIZE);
  }
}

/**
 * Sends now; a failure is logged and surfaces as 502 FAILED_TO_SEND_EMAIL for a caller who may know. Each
 * address receives at most AUTH_MAIL_PER_RECIPIENT_PER_HOUR messages an hour, whoever asks and from however many
 * client addresses, so nobody can use the product to flood an inbox; past that, 429 TOO_MANY_REQUESTS.
 * A security notice (a change to the account: a new device, a new password, a passkey added…) is not capped:
 * nobody can use up an inbox's quota with reset requests first so that the notice is never sent. Each notice
 * follows a change that is itself rate-limited, and a flood of new-device notices is collapsed where they are
 * made (docs/decisions/048-security-events.md, which replaces ADR 030's separate notice quota).
 */
export async function sendMail(draft: MailDraft, options: { securityNotice?: boolean } = {}): Promise<void> {
  if (env.AUTH_MAIL_PER_RECIPIENT_PER_HOUR > 0 && !options.securityNotice) {
    const rule = { windowSeconds: 60 * 60, max: env.AUTH_MAIL_PER_RECIPIENT_PER_HOUR };
    const verdict = await takeFromQuota(`mail-to|${draft.to.toLowerCase()}`, rule);
    if (!verdict.allowed) {
      // The template, never the address (issue 40): who asked is on the request's line.
      console.warn(`[latchkey] not sending a "${draft.kind ?? "other"}" mail: its recipient had ${rule.max} messages this hour already`);
      throw tooManyRequests(verdict.retryAfterSeconds);
    }
  }
  const { kind = "other" } = draft;
  try {
    // Looked up here, in whatever work sends the mail (after the answer, for the notices sent in the background).
    await deliver(writeMail(draft, await mailLanguageFor(draft.recipient ?? draft.to)));
    if (smtp) metrics.mail(kind, "sent");
  } catch (error) {
    if (smtp) metrics.mail(kind, "failed");
    // The SMTP server's answer often names the recipient: the logger scrubs addresses from every line.
    console.error(`[latchkey] could not send a "${kind}" mail:`, (error as Error).message);
    throw new AuthError("FAILED_TO_SEND_EMAIL");
  }
}
