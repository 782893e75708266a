// The mails a person under attack or under an administrator's hand reads (issue 41, ADR 065), from a real SMTP
// catcher: "This wasn't me" has a mail of its own that never says "ignore"; every mail after an administrator's
// act names the actor ("An administrator of <site>"); the new-device mail says "IP address", says its times are
// UTC, and links the reset page, which needs no sign-in.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, signUp, uniqueEmail } from "../support/client";
import { checkMail, mailCount, nextMail } from "../support/mail";
import { Mailbox, type ReceivedMail } from "../support/mailbox";
import { startServer, type TestServer } from "../support/server";
import { query } from "../support/sql";

let mailbox: Mailbox;
let server: TestServer;
let site: string;

beforeAll(async () => {
  mailbox = await new Mailbox().start();
  server = await startServer({ env: { SMTP_URL: mailbox.url, AUTH_EMAIL_VERIFICATION: "optional", AUTH_MAIL_PER_RECIPIENT_PER_HOUR: "50" } });
  site = new URL(server.baseUrl).host;
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await mailbox?.stop();
});

const browser = () => new ApiClient(server.baseUrl);
const FORM = { "content-type": "application/x-www-form-urlencoded" };
const postForm = (client: ApiClient, path: string, fields: Record<string, string>) =>
  client.request("POST", path, { rawBody: new URLSearchParams(fields).toString(), headers: FORM });

/** What no mail to a person under attack, or after an administrator's act, may say. */
function expectNoBrushOff(mail: ReceivedMail) {
  expect(mail.text).not.toMatch(/ignore/i);
  expect(mail.html).not.toMatch(/ignore/i);
}

/** Mail after an administrator's act: names the actor, never "If this was not you" (the owner did nothing). */
function expectNamesTheAdministrator(mail: ReceivedMail) {
  expect(mail.text).toContain(`An administrator of ${site}`);
  expect(mail.text).not.toMatch(/If this was (not )?you/);
  expectNoBrushOff(mail);
}

async function signedInAdmin() {
  const account = await signUp(browser(), { name: "Site Admin" });
  await query(server.database, `UPDATE "user" SET "role" = 'admin' WHERE "id" = ?`, [account.user.id]);
  const admin = browser();
  expect((await admin.post("/api/auth/sign-in/email", { email: account.email, password: PASSWORD })).status).toBe(200);
  return admin;
}

/** A member whose address is verified (so a change of it is told to it). */
async function member() {
  const client = browser();
  const account = await signUp(client);
  await query(server.database, `UPDATE "user" SET "emailVerified" = (1=1) WHERE "id" = ?`, [account.user.id]);
  return { client, email: account.email, id: account.user.id as string };
}

describe("after “This wasn't me”", () => {
  it("a mail of its own: everything was signed out, the old password still works until a new one is chosen, never “ignore”", async () => {
    const { client, email } = await member();
    const ended = await client.post("/api/auth/end-all-sessions", {});
    expect(ended.status, ended.text).toBe(200);
    const mail = await mailbox.waitFor(email, /You signed out everywhere/);
    expect(mail.subject).toBe("You signed out everywhere: now choose a new password · Latchkey");
    expect(mail.text).toMatch(/You chose "This wasn't me — sign out everywhere" on \d{1,2} \w+ \d{4} at \d{2}:\d{2} UTC\./);
    expect(mail.text).toContain("Every device that was signed in to your account was signed out, the one you used too");
    expect(mail.text).toContain("Choose a new password now with the link below: until you do, your old password still works for anyone who knows it.");
    expectNoBrushOff(mail);
    const link = checkMail(mail, server.baseUrl, "1 hour");
    expect(link).toContain("/api/auth/reset-password/");

    // The link does what it says; the old password then no longer signs in.
    const token = new URL(link).pathname.split("/").at(-1)!;
    expect((await browser().post("/api/auth/reset-password", { token, newPassword: "a passphrase only I know" })).status).toBe(200);
    expect((await browser().post("/api/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(401);
  });
});

describe("after “This wasn't me” on an account without a password", () => {
  it("a mail of its own too: everything was signed out, and the ways in to check", async () => {
    const client = browser();
    const email = uniqueEmail("passwordless");
    const seen = mailCount(mailbox, email, /sign-in code/);
    expect((await client.post("/api/auth/email-otp/send-verification-otp", { email, type: "sign-in" })).status).toBe(200);
    const code = (await nextMail(mailbox, email, /sign-in code/, seen)).text.match(/Your code: (\d{6})/)![1];
    expect((await client.post("/api/auth/sign-in/email-otp", { email, otp: code })).status).toBe(200);
    expect((await client.post("/api/auth/end-all-sessions", {})).status).toBe(200);
    const mail = await mailbox.waitFor(email, /You signed out everywhere/);
    expect(mail.subject).toBe("You signed out everywhere · Latchkey");
    expect(mail.text).toContain("Every device that was signed in to your account was signed out, the one you used too");
    expect(mail.text).toContain("remove any passkey or linked account you do not recognise");
    expectNoBrushOff(mail);
    expect(mail.links).toContain(`${server.baseUrl}/sign-in`);
  });
});

describe("the new-device mail", () => {
  it("says “IP address”, says its times are UTC, and links the reset page for someone who can no longer sign in", async () => {
    const { email } = await member();
    expect((await browser().post("/api/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
    const mail = await mailbox.waitFor(email, /New sign-in/);
    expect(mail.text).toContain(", IP address 127.0.0.1)");
    expect(mail.text).not.toContain("client address");
    expect(mail.text).toContain("Times in this message are in UTC (Coordinated Universal Time).");
    expect(mail.text).toContain(`Cannot sign in? Choose a new password here: ${server.baseUrl}/forgot-password`);
    expect(mail.html).toContain(`href="${server.baseUrl}/forgot-password"`);
    expect(mail.links).toContain(`${server.baseUrl}/account/activity`);
  });
});

describe("mails after an administrator's act name the administrator", () => {
  it("a password set by an administrator: the old one no longer works", async () => {
    const admin = await signedInAdmin();
    const { email, id } = await member();
    expect((await admin.post("/api/auth/admin/set-user-password", { userId: id, newPassword: "an admin's passphrase" })).status).toBe(200);
    const mail = await mailbox.waitFor(email, /An administrator set a new password/);
    expectNamesTheAdministrator(mail);
    expect(mail.text).toMatch(new RegExp(`An administrator of ${site} set a new password for your account on \\d{1,2} \\w+ \\d{4} at \\d{2}:\\d{2} UTC\\. Your old password no longer works\\.`));
    expect(mail.links).toContain(`${server.baseUrl}/forgot-password`);
    // One mail, not also the owner's "A password was set on your account".
    expect(mailCount(mailbox, email, /password was set/)).toBe(0);
  });

  it("the console's “Send a password reset link”: who sent it, the current password still works, the link works", async () => {
    const admin = await signedInAdmin();
    const { email, id } = await member();
    const sent = await postForm(admin, `/admin/users/${id}`, { intent: "send-reset" });
    expect(sent.status, sent.text).toBe(302);
    const mail = await mailbox.waitFor(email, /An administrator sent you a link/);
    expectNamesTheAdministrator(mail);
    expect(mail.text).toContain(`An administrator of ${site} sent you this link to choose a new password for your account.`);
    expect(mail.text).toContain("Your current password keeps working until you choose a new one.");
    const token = new URL(checkMail(mail, server.baseUrl, "1 hour")).pathname.split("/").at(-1)!;
    expect((await browser().post("/api/auth/reset-password", { token, newPassword: "my very own passphrase" })).status).toBe(200);
  });

  it("a suspension and its end, a role given and taken, every session ended", async () => {
    const admin = await signedInAdmin();
    const { email, id } = await member();

    expect((await admin.post("/api/auth/admin/ban-user", { userId: id, banReason: "internal note" })).status).toBe(200);
    const banned = await mailbox.waitFor(email, /Your account was suspended/);
    expectNamesTheAdministrator(banned);
    expect(banned.text).toContain("You were signed out everywhere and cannot sign in until the suspension is lifted.");
    expect(banned.text).not.toContain("internal note"); // the admin's reason is the operators'
    expect(banned.links).toEqual([]); // nothing to press for an account that cannot sign in

    expect((await admin.post("/api/auth/admin/unban-user", { userId: id })).status).toBe(200);
    const lifted = await mailbox.waitFor(email, /can be used again/);
    expectNamesTheAdministrator(lifted);
    expect(lifted.text).toContain("You can sign in again.");

    expect((await admin.post("/api/auth/admin/set-role", { userId: id, role: "admin" })).status).toBe(200);
    expectNamesTheAdministrator(await mailbox.waitFor(email, /You are now an administrator/));
    expect((await admin.post("/api/auth/admin/set-role", { userId: id, role: "user" })).status).toBe(200);
    expectNamesTheAdministrator(await mailbox.waitFor(email, /You are no longer an administrator/));

    const before = mailCount(mailbox, email, /signed you out/);
    expect((await browser().post("/api/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
    expect((await admin.post("/api/auth/admin/revoke-user-sessions", { userId: id })).status).toBe(200);
    const signedOut = await nextMail(mailbox, email, /An administrator signed you out/, before);
    expectNamesTheAdministrator(signedOut);
    expect(signedOut.text).toContain(`An administrator of ${site} signed you out of every device on`);
  });

  it("a new address set by an administrator is told to the old one, naming both", async () => {
    const admin = await signedInAdmin();
    const { email, id } = await member();
    const newEmail = uniqueEmail("moved");
    const updated = await admin.post("/api/auth/admin/update-user", { userId: id, data: { email: newEmail } });
    expect(updated.status, updated.text).toBe(200);
    const mail = await mailbox.waitFor(email, /email address of your account was changed/);
    expectNamesTheAdministrator(mail);
    expect(mail.text).toContain(`An administrator of ${site} changed the email address of your account from ${email} to ${newEmail} on`);
    expect(mailbox.to(newEmail)).toHaveLength(0);
  });
});
