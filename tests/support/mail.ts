// Assertions every product e-mail must pass, and waits for "a new message" / "no message" in a Mailbox.
import { expect } from "vitest";
import { actionLink, type Mailbox, type ReceivedMail } from "./mailbox";

const decodeHtml = (value: string) =>
  value.replace(/&(amp|lt|gt|quot|#39);/g, (_, entity: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[entity]!);

/**
 * The rules of the issue's "E-mail delivery": a text and an HTML part, the product's name, exactly one action
 * link (absolute, on BASE_URL) in both parts, and how long that link lives. Returns the link.
 */
export function checkMail(mail: ReceivedMail, baseUrl: string, lifetime: string): string {
  expect(mail.text.trim().length).toBeGreaterThan(0);
  expect(mail.html).toMatch(/<html[\s>]/i);
  expect(mail.subject).toContain("Latchkey");
  expect(mail.text).toContain("Latchkey");
  expect(mail.html).toContain("Latchkey");
  const link = actionLink(mail);
  expect(link.startsWith(`${baseUrl}/`)).toBe(true);
  expect(new URL(link).origin).toBe(baseUrl);
  const hrefs = new Set([...mail.html.matchAll(/href="([^"]*)"/g)].map((m) => decodeHtml(m[1])));
  expect([...hrefs]).toEqual([link]);
  const lives = new RegExp(`expires in ${lifetime}(?![a-z])`); // "1 second", not "1 seconds"
  expect(mail.text).toMatch(lives);
  expect(decodeHtml(mail.html)).toMatch(lives);
  return link;
}

function matching(mailbox: Mailbox, address: string, subject?: RegExp): ReceivedMail[] {
  return mailbox.to(address).filter((m) => !subject || subject.test(m.subject));
}

/** How many messages to `address` (with a matching subject) arrived so far: pass it to `nextMail`. */
export function mailCount(mailbox: Mailbox, address: string, subject?: RegExp): number {
  return matching(mailbox, address, subject).length;
}

/** Waits for a message to `address` beyond the first `seen` ones and returns it. */
export async function nextMail(mailbox: Mailbox, address: string, subject: RegExp | undefined, seen: number, timeoutMs = 10_000): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const all = matching(mailbox, address, subject);
    if (all.length > seen) return all[seen];
    if (Date.now() > deadline) throw new Error(`no new mail to ${address}${subject ? ` matching ${subject}` : ""} within ${timeoutMs} ms`);
    await sleep(20);
  }
}

/** Background sends have no completion signal: give them a short while, then check nothing more arrived. */
export async function expectNoNewMail(mailbox: Mailbox, address: string, seen = 0, waitMs = 400): Promise<void> {
  await sleep(waitMs);
  expect(mailbox.to(address).map((m) => m.subject)).toHaveLength(seen);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A signed (JWT) token with one character of its signature changed: same shape, wrong signature. */
export function tamperSignature(jwt: string): string {
  const [header, payload, signature] = jwt.split(".");
  const i = Math.floor(signature.length / 2);
  const swapped = signature[i] === "A" ? "B" : "A";
  return `${header}.${payload}.${signature.slice(0, i)}${swapped}${signature.slice(i + 1)}`;
}

/** A signed (JWT) token whose payload was edited (keeping the old signature): a forgery attempt. */
export function tamperPayload(jwt: string, edit: (payload: Record<string, unknown>) => void): string {
  const [header, payload, signature] = jwt.split(".");
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  edit(claims);
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.${signature}`;
}

/** The same URL with one query value replaced (or removed when `value` is null). */
export function withParam(link: string, name: string, value: string | null): string {
  const url = new URL(link);
  if (value === null) url.searchParams.delete(name);
  else url.searchParams.set(name, value);
  return url.toString();
}
