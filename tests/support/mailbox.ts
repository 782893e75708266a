// A real SMTP server on 127.0.0.1 that keeps every message it receives, parsed, for tests to read and follow.
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  /** Every http(s) link in the text part. */
  links: string[];
}

export class Mailbox {
  readonly messages: ReceivedMail[] = [];
  private waiters: Array<() => void> = [];
  private server: SMTPServer;
  /** When set, the server refuses every message (to test failed sends). */
  failing = false;
  port = 0;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onData: (stream, _session, callback) => {
        if (this.failing) {
          stream.resume();
          stream.on("end", () => callback(Object.assign(new Error("mailbox unavailable"), { responseCode: 550 })));
          return;
        }
        simpleParser(stream)
          .then((parsed) => {
            const to = [parsed.to].flat().flatMap((a) => (a ? a.value.map((v) => (v.address ?? "").toLowerCase()) : []));
            const text = parsed.text ?? "";
            this.messages.push({
              to,
              from: parsed.from?.text ?? "",
              subject: parsed.subject ?? "",
              text,
              html: typeof parsed.html === "string" ? parsed.html : "",
              links: text.match(/https?:\/\/[^\s<>"]+/g) ?? [],
            });
            this.waiters.splice(0).forEach((wake) => wake());
            callback();
          })
          .catch(callback);
      },
    });
  }

  async start(port = 0): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(port, "127.0.0.1", () => resolve());
    });
    this.port = (this.server.server.address() as { port: number }).port;
    return this;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The newest message to `address` (optionally whose subject matches), waiting for it to arrive. */
  async waitFor(address: string, subject?: RegExp, timeoutMs = 10_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = [...this.messages].reverse().find((m) => m.to.includes(address.toLowerCase()) && (!subject || subject.test(m.subject)));
      if (found) return found;
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`no mail to ${address}${subject ? ` matching ${subject}` : ""} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Messages to `address` so far. */
  to(address: string): ReceivedMail[] {
    return this.messages.filter((m) => m.to.includes(address.toLowerCase()));
  }
}

/** The single action link of a message (every product mail has exactly one). */
export function actionLink(mail: ReceivedMail): string {
  const unique = [...new Set(mail.links)];
  if (unique.length !== 1) throw new Error(`expected one link in "${mail.subject}", found ${unique.length}`);
  return unique[0];
}
