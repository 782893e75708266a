// Mailed links that change an account wait for a click outside the account's own browser (issue 37): a mail
// scanner's GET (a browser's Accept, */*, JSON, HEAD) changes nothing and the person's later click still works;
// the page asks a never-proven account's visitor "That was me" (its own password: nothing ends) or "I didn't create
// this account" (the claim, ADR 028); an address change offers "Confirm" and "This wasn't me".
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, signUp, uniqueEmail, shownText } from "../support/client";
import { COOKIE } from "../support/cookies";
import { mailCount, nextMail } from "../support/mail";
import { actionLink, type Mailbox } from "../support/mailbox";
import { sharedMailbox, startServer, type TestServer } from "../support/server";
import { count, query } from "../support/sql";

const VERIFY = /Verify your email address/;
const CONFIRM_CHANGE = /Confirm your new email address/;
const RESET = /Reset your password|password/i;
const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

let mailbox: Mailbox;
let server: TestServer;
/** A second instance on the same database: its session cache must hear a claim too (ADR 024). */
let second: TestServer;

beforeAll(async () => {
  mailbox = await sharedMailbox();
  server = await startServer({ env: { SMTP_URL: mailbox.url } });
  second = await startServer({ env: { SMTP_URL: mailbox.url }, database: server.database });
}, 90_000);
afterAll(async () => {
  await Promise.all([server?.stop(), second?.stop()]);
  await mailbox?.stop();
});

const truthy = (value: unknown) => value === true || value === 1;
async function emailVerified(userId: string) {
  const [row] = await query<{ emailVerified: unknown }>(server.database, `SELECT "emailVerified" FROM "user" WHERE "id" = ?`, [userId]);
  return truthy(row.emailVerified);
}
const sessionOf = async (client: ApiClient) => (await client.get("/api/auth/get-session?disableCookieCache=true")).body;
const signInStatus = async (target: TestServer, email: string, password = PASSWORD) =>
  (await new ApiClient(target.baseUrl).post("/api/auth/sign-in/email", { email, password })).status;

/** A never-proven account, signed in where it signed up, and its verification link. */
async function newAccount() {
  const client = new ApiClient(server.baseUrl);
  const account = await signUp(client);
  const link = actionLink(await mailbox.waitFor(account.email, VERIFY));
  return { ...account, client, link };
}

/** Every way a scanner or preview opens a link, none carrying the account's cookies. */
async function scan(link: string) {
  const url = new URL(link);
  const bare = `${url.pathname}?token=${encodeURIComponent(url.searchParams.get("token")!)}`;
  const scanner = () => new ApiClient(server.baseUrl, null);
  const answers = {
    browser: await scanner().get(link, { accept: BROWSER_ACCEPT }),
    any: await scanner().get(link, { accept: "*/*" }),
    anyWithoutCallback: await scanner().get(bare, { accept: "*/*" }),
    json: await scanner().get(bare, { accept: "application/json" }),
    nothing: await scanner().get(bare),
    head: await scanner().request("HEAD", link),
    page: await scanner().get(`/confirm-email${url.search}`, { accept: BROWSER_ACCEPT }),
  };
  return answers;
}

/** Posts one of the link page's forms as a browser without JavaScript does. */
function postPage(client: ApiClient, link: string, fields: Record<string, string>) {
  const url = new URL(link);
  const form = new URLSearchParams({ token: url.searchParams.get("token")!, callbackURL: url.searchParams.get("callbackURL") ?? "", ...fields });
  return client.request("POST", `/confirm-email${url.search}`, {
    rawBody: form.toString(),
    headers: { "content-type": "application/x-www-form-urlencoded", accept: BROWSER_ACCEPT },
  });
}

describe("a verification link opened outside the account's own browser", () => {
  it("changes nothing for any scanner, and the page says what it will do and asks", async () => {
    const { link, user, client } = await newAccount();
    const answers = await scan(link);
    const confirmPage = expect.stringMatching(/\/confirm-email\?token=.+callbackURL=%2Femail-verified$/);
    expect(answers.browser.status).toBe(302);
    expect(answers.browser.headers.get("location")).toEqual(confirmPage);
    expect(answers.any.status).toBe(302); // a client given a callbackURL gets Better Auth's redirect, to the page
    expect(answers.any.headers.get("location")).toEqual(confirmPage);
    for (const answer of [answers.anyWithoutCallback, answers.json, answers.nothing]) {
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({ code: "LINK_NEEDS_CONFIRMATION", message: "Link needs confirmation" });
    }
    expect(answers.head.status).toBe(200);
    expect(answers.head.text).toBe("");
    expect(answers.page.status).toBe(200);
    expect(answers.page.text).toContain(user.email);
    expect(answers.page.text).toContain("Was that you?");
    expect(answers.page.text).toContain("I didn&#x27;t create this account");
    // The page is plain forms: no script submits anything by itself.
    expect(answers.page.text).not.toMatch(/\.submit\(\)|requestSubmit/);

    expect(await emailVerified(user.id)).toBe(false);
    expect((await sessionOf(client))?.user.id).toBe(user.id);
    expect(await count(server.database, "verification", `"identifier" LIKE 'email-verification:%' AND "value" LIKE ?`, [`%${user.id}%`])).toBe(1);

    // The person's own click, later, from the browser that signed up: acts at once, nothing ends.
    const clicked = await client.get(link, { accept: BROWSER_ACCEPT });
    expect(clicked.status).toBe(302);
    expect(clicked.headers.get("location")).toBe(`${server.baseUrl}/email-verified`);
    expect(await emailVerified(user.id)).toBe(true);
    expect(await signInStatus(server, user.email)).toBe(200);
  });

  it("'That was me' with the account's password: verified, signed in, and nothing the person set up ends", async () => {
    const { link, user, client } = await newAccount();
    const phone = new ApiClient(server.baseUrl);
    expect((await phone.get(link, { accept: BROWSER_ACCEPT })).status).toBe(302);

    const wrong = await postPage(phone, link, { intent: "creator", password: "not the password" });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain("That isn&#x27;t your current password.");
    expect(await emailVerified(user.id)).toBe(false);

    const right = await postPage(phone, link, { intent: "creator", password: PASSWORD });
    expect(right.status).toBe(302);
    expect(right.headers.get("location")).toBe(`${server.baseUrl}/email-verified`);
    expect(right.setCookies.some((line) => line.startsWith(`${COOKIE.sessionToken}=`))).toBe(true);
    expect(await emailVerified(user.id)).toBe(true);
    // The laptop's session, the password and the phone's new session all stand.
    expect((await sessionOf(client))?.user.id).toBe(user.id);
    expect((await sessionOf(phone))?.user.id).toBe(user.id);
    expect(await signInStatus(server, user.email)).toBe(200);
    // A later click on the used link (a scanner's, or the person's again) changes nothing: the address is verified.
    expect((await postPage(new ApiClient(server.baseUrl), link, { intent: "confirm" })).status).toBe(302);
    expect(await signInStatus(server, user.email)).toBe(200);
  });

  it("a browser signed in to the account (not the one that signed up) acts at once and ends nothing", async () => {
    const { link, user, client } = await newAccount();
    const other = new ApiClient(server.baseUrl);
    expect((await other.post("/api/auth/sign-in/email", { email: user.email, password: PASSWORD })).status).toBe(200);
    other.cookies.delete(COOKIE.verificationBrowser); // only the session says whose browser this is
    const answer = await other.get(link, { accept: BROWSER_ACCEPT });
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe(`${server.baseUrl}/email-verified`);
    expect(await emailVerified(user.id)).toBe(true);
    expect((await sessionOf(client))?.user.id).toBe(user.id);
    expect(await signInStatus(server, user.email)).toBe(200);
  });

  it("'I didn't create this account' claims it: the password and every session end, on the second instance too", async () => {
    const { link, user, client } = await newAccount();
    const elsewhere = new ApiClient(second.baseUrl);
    expect((await elsewhere.post("/api/auth/sign-in/email", { email: user.email, password: PASSWORD })).status).toBe(200);
    expect((await sessionOf(elsewhere))?.user.id).toBe(user.id);

    const owner = new ApiClient(server.baseUrl);
    // The button asks once more (a mis-tap would cost the creator their setup); asking changes nothing.
    const asked = await postPage(owner, link, { intent: "claim-ask" });
    expect(asked.status).toBe(200);
    expect(asked.text).toContain("Remove what was set up on this account?");
    expect(await emailVerified(user.id)).toBe(false);
    expect((await sessionOf(client))?.user.id).toBe(user.id);
    const answer = await postPage(owner, link, { intent: "confirm" });
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe(`${server.baseUrl}/email-verified`);
    expect(await emailVerified(user.id)).toBe(true);
    expect(await count(server.database, "account", `"userId" = ?`, [user.id])).toBe(0);
    expect(await sessionOf(client)).toBeNull();
    await expect.poll(() => sessionOf(elsewhere), { timeout: 5_000 }).toBeNull();
    expect(await signInStatus(second, user.email)).toBe(401);
    // The landing page says what ended and the way on.
    const landed = await owner.get("/email-verified", { accept: BROWSER_ACCEPT });
    expect(landed.text).toContain("anyone can sign up with any address");
  });

  it("a client confirms with POST /verify-email {token}: the proof of the inbox, as the page's button", async () => {
    const { link, user } = await newAccount();
    const token = new URL(link).searchParams.get("token")!;
    const confirmed = await new ApiClient(server.baseUrl, null).post("/api/auth/verify-email", { token });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ status: true, user: { id: user.id, emailVerified: true } });
    expect(await count(server.database, "account", `"userId" = ?`, [user.id])).toBe(0); // claimed
    const again = await new ApiClient(server.baseUrl, null).post("/api/auth/verify-email", { token });
    expect(again.status).toBe(200); // a repeat of a completed verification succeeds (scanners), changing nothing
  });

  it("an already verified address: a scanner's GET answers as before and writes nothing", async () => {
    const { link, user, client } = await newAccount();
    expect((await client.get(link)).status).toBe(302);
    const scanner = new ApiClient(server.baseUrl, null);
    const answer = await scanner.get(link, { accept: BROWSER_ACCEPT });
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe(`${server.baseUrl}/email-verified`);
    expect(await emailVerified(user.id)).toBe(true);
  });
});

describe("an address-change confirmation opened outside the account's own browser", () => {
  /** A verified account that asked to move; the confirmation link mailed to its current address. */
  async function pendingChange() {
    const account = await newAccount();
    expect((await account.client.get(account.link)).status).toBe(302); // verified in its own browser
    const newEmail = uniqueEmail("moved");
    const seen = mailCount(mailbox, account.email, CONFIRM_CHANGE);
    expect((await account.client.post("/api/auth/change-email", { newEmail })).status).toBe(200);
    const link = actionLink(await nextMail(mailbox, account.email, CONFIRM_CHANGE, seen));
    return { ...account, newEmail, changeLink: link };
  }
  const emailOf = async (userId: string) =>
    (await query<{ email: string }>(server.database, `SELECT "email" FROM "user" WHERE "id" = ?`, [userId]))[0].email;

  it("a scanner moves nothing; the page names both addresses; Confirm moves the account", async () => {
    const { user, newEmail, changeLink } = await pendingChange();
    const answers = await scan(changeLink);
    expect(answers.browser.status).toBe(302);
    expect(answers.browser.headers.get("location")).toMatch(/\/confirm-email\?/);
    expect(answers.json.status).toBe(403);
    expect(answers.head.status).toBe(200);
    expect(shownText(answers.page.text)).toContain(`Move your account from ${user.email} to ${newEmail}?`);
    expect(await emailOf(user.id)).toBe(user.email);

    const confirmed = await postPage(new ApiClient(server.baseUrl), changeLink, { intent: "confirm" });
    expect(confirmed.status).toBe(302);
    expect(await emailOf(user.id)).toBe(newEmail);
  });

  it("'This wasn't me' keeps the address, ends every session, cancels the change and mails a reset link", async () => {
    const { user, client, changeLink } = await pendingChange();
    const elsewhere = new ApiClient(second.baseUrl);
    expect((await elsewhere.post("/api/auth/sign-in/email", { email: user.email, password: PASSWORD })).status).toBe(200);
    const resets = mailCount(mailbox, user.email, RESET);

    const refused = await postPage(new ApiClient(server.baseUrl), changeLink, { intent: "refuse" });
    expect(refused.status).toBe(302);
    expect(refused.headers.get("location")).toBe("/sign-in");
    expect(await emailOf(user.id)).toBe(user.email);
    expect(await count(server.database, "session", `"userId" = ?`, [user.id])).toBe(0);
    expect(await sessionOf(client)).toBeNull();
    await expect.poll(() => sessionOf(elsewhere), { timeout: 5_000 }).toBeNull();
    await nextMail(mailbox, user.email, RESET, resets);
    const [event] = await query<{ details: string }>(
      server.database,
      `SELECT "details" FROM "securityEvent" WHERE "userId" = ? AND "type" = 'sessions_ended_by_owner'`,
      [user.id],
    );
    expect(JSON.parse(event.details)).toMatchObject({ resetLinkMailed: true });
    // The change is cancelled: the link no longer moves anything, from any browser.
    expect((await postPage(new ApiClient(server.baseUrl), changeLink, { intent: "confirm" })).status).toBe(400);
    expect(await emailOf(user.id)).toBe(user.email);
  });

  it("the account's own signed-in browser confirms at once, as before", async () => {
    const { user, client, newEmail, changeLink } = await pendingChange();
    const answer = await client.get(changeLink, { accept: BROWSER_ACCEPT });
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe(`${server.baseUrl}/email-verified`);
    expect(await emailOf(user.id)).toBe(newEmail);
  });
});
