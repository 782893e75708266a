// A real SMTP server on 127.0.0.1 that keeps every message it receives, parsed, for tests to read and follow.
// A Mailbox is either a file's own (`new Mailbox().start()`) or a window on the API suite's shared one
// (`Mailbox.shared()`, ADR 040): the server pool's SMTP server, which streams every message it receives to each
// file that asked, so files sharing a test server share its mail. Tests find their mail by recipient (every test
// uses its own addresses), so the messages of other files in a shared mailbox are never in their way.
import { request as httpRequest, type ClientRequest } from "node:http";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  /** The Content-Language header: the language the message is written in (issue 44). */
  language: string;
  /** Every http(s) link in the text part. */
  links: string[];
}

export class Mailbox {
  readonly messages: ReceivedMail[] = [];
  private waiters: Array<() => void> = [];
  private listeners = new Set<(mail: ReceivedMail) => void>();
  private smtp?: SMTPServer;
  /** Shared mode: the server pool's address, and the open stream of its messages. */
  private pool?: { url: string; smtpUrl: string; feed: ClientRequest; ended?: boolean; stopping?: boolean };
  private refused = new Set<string>();
  private failingEverything = false;
  port = 0;

  /**
   * When set, the server refuses every message (to test failed sends). A shared mailbox serves other test files
   * too, so it cannot: refuse one address instead (`refuse`).
   */
  get failing(): boolean {
    return this.failingEverything;
  }
  set failing(value: boolean) {
    if (this.pool) throw new Error("a shared mailbox cannot refuse every message (other test files use it): use mailbox.refuse(address)");
    this.failingEverything = value;
  }

  /** Refuses (or, with `refused: false`, accepts again) every message to `address`: a failed send, for one test. */
  async refuse(address: string, refused = true): Promise<void> {
    if (this.pool) {
      const response = await fetch(`${this.pool.url}/mail/refuse`, { method: "POST", body: JSON.stringify({ address, refused }) });
      if (!response.ok) throw new Error(`the server pool did not refuse ${address}: ${response.status}`);
      return;
    }
    if (refused) this.refused.add(address.toLowerCase());
    else this.refused.delete(address.toLowerCase());
  }

  async start(port = 0): Promise<this> {
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onData: (stream, session, callback) => {
        const recipients = session.envelope.rcptTo.map((to) => to.address.toLowerCase());
        if (this.failingEverything || recipients.some((to) => this.refused.has(to))) {
          stream.resume();
          stream.on("end", () => callback(Object.assign(new Error("mailbox unavailable"), { responseCode: 550 })));
          return;
        }
        simpleParser(stream)
          .then((parsed) => {
            const to = [parsed.to].flat().flatMap((a) => (a ? a.value.map((v) => (v.address ?? "").toLowerCase()) : []));
            const text = parsed.text ?? "";
            this.receive({
              to,
              from: parsed.from?.text ?? "",
              subject: parsed.subject ?? "",
              text,
              html: typeof parsed.html === "string" ? parsed.html : "",
              language: String(parsed.headers.get("content-language") ?? ""),
              links: text.match(/https?:\/\/[^\s<>"]+/g) ?? [],
            });
            callback();
          })
          .catch(callback);
      },
    });
    await new Promise<void>((resolve, reject) => {
      smtp.once("error", reject);
      smtp.listen(port, "127.0.0.1", () => resolve());
    });
    // Once listening, smtp-server reports a client that drops its connection (a test server stopped in the middle
    // of a send: ECONNRESET) as an 'error' event; unheard, that event ended the whole test process.
    smtp.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "ECONNRESET" && error.code !== "EPIPE") console.warn("[mailbox] SMTP server error:", error.message);
    });
    this.smtp = smtp;
    this.port = (smtp.server.address() as { port: number }).port;
    return this;
  }

  /**
   * A window on the server pool's shared SMTP server at `poolUrl` (tests/support/server-pool.ts): every message
   * it receives from now on. Resolves once the stream is open, so no message sent afterwards is missed.
   */
  static async shared(poolUrl: string): Promise<Mailbox> {
    const mailbox = new Mailbox();
    const smtpUrl = await Mailbox.sharedUrl(poolUrl);
    await new Promise<void>((resolve, reject) => {
      const feed = httpRequest(`${poolUrl}/mail/feed`, (response) => {
        response.setEncoding("utf8");
        let pending = "";
        response.on("data", (chunk: string) => {
          pending += chunk;
          let newline: number;
          while ((newline = pending.indexOf("\n")) >= 0) {
            const line = pending.slice(0, newline);
            pending = pending.slice(newline + 1);
            if (line) mailbox.receive(JSON.parse(line) as ReceivedMail);
          }
        });
        response.on("error", () => {}); // the stream ends when the file stops its mailbox
        response.on("close", () => {
          // A stream that ended before the file stopped it would make every later wait time out for no visible
          // reason: say so instead.
          if (mailbox.pool && !mailbox.pool.stopping) mailbox.pool.ended = true;
          mailbox.waiters.splice(0).forEach((wake) => wake());
        });
        resolve();
      });
      feed.on("error", reject);
      // An open stream must not keep a test file's process alive; a waiting test has its own timer.
      feed.on("socket", (socket) => socket.unref());
      feed.end();
      mailbox.pool = { url: poolUrl, smtpUrl, feed };
    });
    return mailbox;
  }

  /** The address of the server pool's SMTP server (at `poolUrl`), for a test server's SMTP_URL. */
  static async sharedUrl(poolUrl: string): Promise<string> {
    return ((await (await fetch(`${poolUrl}/mail`)).json()) as { smtpUrl: string }).smtpUrl;
  }

  get url(): string {
    return this.pool ? this.pool.smtpUrl : `smtp://127.0.0.1:${this.port}`;
  }

  /** A shared mailbox closes its window (the pool's SMTP server stays for the other files). */
  async stop(): Promise<void> {
    if (this.pool) {
      this.pool.stopping = true;
      this.pool.feed.destroy();
      return;
    }
    const smtp = this.smtp;
    if (smtp) await new Promise<void>((resolve) => smtp.close(() => resolve()));
  }

  /** Calls `listener` with every message received from now on; returns the function that stops it. */
  subscribe(listener: (mail: ReceivedMail) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private receive(mail: ReceivedMail): void {
    this.messages.push(mail);
    this.waiters.splice(0).forEach((wake) => wake());
    this.listeners.forEach((listener) => listener(mail));
  }

  /** The newest message to `address` (optionally whose subject matches), waiting for it to arrive. */
  async waitFor(address: string, subject?: RegExp, timeoutMs = 10_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = [...this.messages].reverse().find((m) => m.to.includes(address.toLowerCase()) && (!subject || subject.test(m.subject)));
      if (found) return found;
      if (this.pool?.ended) throw new Error(`the shared mailbox's stream ended before mail to ${address} arrived`);
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
