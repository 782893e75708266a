// Reading the mail the app sent during a browser test (see global-setup.ts).
import type { ReceivedMail } from "../support/mailbox";
import { actionLink } from "../support/mailbox";
import { E2E_MAIL_API_PORT } from "./ports";

const MAIL_API = `http://127.0.0.1:${E2E_MAIL_API_PORT}/`;

/** The newest message to `address` whose subject matches, once it has arrived. */
export async function waitForMail(address: string, subject: RegExp, options: { after?: number } = {}): Promise<ReceivedMail> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const messages = (await (await fetch(MAIL_API)).json()) as ReceivedMail[];
    const matching = messages.filter((m) => m.to.includes(address.toLowerCase()) && subject.test(m.subject));
    const found = matching.slice(options.after ?? 0).at(-1);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${address} matching ${subject}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** How many messages to `address` matching `subject` have arrived so far. */
export async function countMail(address: string, subject: RegExp): Promise<number> {
  const messages = (await (await fetch(MAIL_API)).json()) as ReceivedMail[];
  return messages.filter((m) => m.to.includes(address.toLowerCase()) && subject.test(m.subject)).length;
}

/** The one action link of the newest matching message. */
export async function linkFromMail(address: string, subject: RegExp, options: { after?: number } = {}): Promise<string> {
  return actionLink(await waitForMail(address, subject, options));
}
