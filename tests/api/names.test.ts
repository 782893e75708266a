// Issue 24, item 9: organization and user names are shown to others and mailed to any address (an invitation
// names the organization and the inviter), so line breaks, tabs, other control and format characters and
// bidirectional overrides are refused wherever a name is set, names are bounded, and the invitation mail keeps
// them out of its subject and quotes them in its body.
import { describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, sessionShows, signUp, uniqueEmail } from "../support/client";
import type { Mailbox } from "../support/mailbox";
import { useServerWithMailbox, type TestServer } from "../support/server";
import { query } from "../support/sql";

const ORG = "/api/auth/organization";
const FORM = { "content-type": "application/x-www-form-urlencoded" };

let server: TestServer;
let mailbox: Mailbox;
useServerWithMailbox({ AUTH_EMAIL_VERIFICATION: "off", AUTH_INVITATION_REQUIRE_VERIFIED_EMAIL: "off" }, (running) => ({ server, mailbox } = running));

const BAD_NAMES: Array<[string, string]> = [
  ["a line break", "Acme\nClick https://evil.example to claim your prize"],
  ["a carriage return", "Acme\r\nBcc: everyone@example.com"],
  ["a tab", "Acme\tInc"],
  ["a NUL", "Acme\u0000"],
  ["a right-to-left override", "Acme \u202Egnp.exe"],
  ["a bidi isolate", "Acme \u2066x\u2069"],
  ["a zero-width space", "Ac\u200Bme"],
  ["a line separator", "Acme\u2028Inc"],
  ["a byte-order mark inside", "Ac\uFEFFme"],
  ["201 characters", "x".repeat(201)],
];
/** Names that look unusual but are fine: accents, other scripts, emoji joined with a zero-width joiner. */
const GOOD_NAMES = ["Zoë O'Brien-Łukasz", "محمد‌رضا", "नमस्ते", "Family 👨‍👩‍👧", "x".repeat(200)];

const expectRefused = (response: { status: number; body: any }, field: string) => {
  expect(response.status, JSON.stringify(response.body)).toBe(400);
  expect(response.body.code).toBe("VALIDATION_ERROR");
  expect(response.body.message).toContain(`[body.${field}]`);
};

let slugs = 0;
const slug = () => `names-${Date.now().toString(36)}-${++slugs}`;

describe("user names", () => {
  it.each(BAD_NAMES)("sign-up refuses a name with %s and creates nobody", async (_, name) => {
    const email = uniqueEmail("name");
    expectRefused(await new ApiClient(server.baseUrl).post("/api/auth/sign-up/email", { name, email, password: PASSWORD }), "name");
    expect(await query(server.database, `SELECT "id" FROM "user" WHERE "email" = ?`, [email])).toHaveLength(0);
  });

  it("update-user refuses each, and keeps the name; good names of every script pass", async () => {
    const client = new ApiClient(server.baseUrl);
    await signUp(client, { name: "Plain Name" });
    for (const [, name] of BAD_NAMES) expectRefused(await client.post("/api/auth/update-user", { name }), "name");
    expect((await client.get("/api/auth/get-session")).body.user.name).toBe("Plain Name");
    for (const name of GOOD_NAMES) {
      expect((await client.post("/api/auth/update-user", { name })).status, name).toBe(200);
      expect((await client.get("/api/auth/get-session")).body.user.name).toBe(name);
    }
  });

  it("the sign-up and profile pages refuse them too, next to the field", async () => {
    const browser = new ApiClient(server.baseUrl);
    const email = uniqueEmail("name-page");
    const page = await browser.request("POST", "/sign-up", {
      rawBody: new URLSearchParams({ name: "Eve\nAdmin", email, password: PASSWORD }).toString(),
      headers: FORM,
    });
    expect(page.status).toBe(400);
    expect(page.text).toContain("no line breaks, tabs or control characters");
    expect(await query(server.database, `SELECT "id" FROM "user" WHERE "email" = ?`, [email])).toHaveLength(0);

    const client = new ApiClient(server.baseUrl);
    await signUp(client, { name: "Profile Name" });
    const profile = await client.request("POST", "/account/profile", {
      rawBody: new URLSearchParams({ intent: "update-profile", name: "Eve\u202EAdmin" }).toString(),
      headers: FORM,
    });
    expect(profile.status).toBe(400);
    expect((await client.get("/api/auth/get-session")).body.user.name).toBe("Profile Name");
  });
});

describe("organization names", () => {
  it.each(BAD_NAMES)("create and update refuse a name with %s", async (_, name) => {
    const client = new ApiClient(server.baseUrl);
    await signUp(client);
    expectRefused(await client.post(`${ORG}/create`, { name, slug: slug() }), "name");
    const created = await client.post(`${ORG}/create`, { name: "Fine Org", slug: slug() });
    expect(created.status).toBe(200);
    expectRefused(await client.post(`${ORG}/update`, { organizationId: created.body.id, data: { name } }), "data.name");
    expect((await client.get(`${ORG}/get-full-organization?organizationId=${created.body.id}`)).body.name).toBe("Fine Org");
  });

  it("good names of every script pass", async () => {
    const client = new ApiClient(server.baseUrl);
    await signUp(client);
    for (const name of GOOD_NAMES) expect((await client.post(`${ORG}/create`, { name, slug: slug(), keepCurrentActiveOrganization: true })).status, name).toBe(200);
  });
});

describe("the invitation mail", () => {
  it("names neither the organization nor the inviter in its subject, and quotes both in its body, even names stored before the rule", async () => {
    const inviter = new ApiClient(server.baseUrl);
    const { user } = await signUp(inviter, { name: "Mallory" });
    const created = await inviter.post(`${ORG}/create`, { name: "Acme", slug: slug() });
    // Rows written before names were checked (or by hand) are quoted with their control characters made spaces.
    await query(server.database, `UPDATE "organization" SET "name" = ? WHERE "id" = ?`, ["Acme\nYour account is locked, call +1 555", created.body.id]);
    await query(server.database, `UPDATE "user" SET "name" = ? WHERE "id" = ?`, ["Support\r\nTeam", user.id]);
    await sessionShows(inviter, (session) => session?.user?.name === "Support\r\nTeam"); // the mail names the inviter as the server has them
    const invitee = uniqueEmail("invitee");
    const invited = await inviter.post(`${ORG}/invite-member`, { email: invitee, role: "member", organizationId: created.body.id });
    expect(invited.status, invited.text).toBe(200);
    const mail = await mailbox.waitFor(invitee);
    expect(mail.subject).toBe("You are invited to join an organization · Latchkey");
    expect(mail.text).toContain("“Support Team” invited you to join the organization named “Acme Your account is locked, call +1 555” as member.");
    expect(mail.text).not.toMatch(/Acme\n/);
  });
});
