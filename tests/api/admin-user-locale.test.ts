// Issue 44: the admin API's user objects carry `locale` as get-session does (null when unset): get-user, list-users,
// create-user and update-user. update-user and create-user take it by the same rule as /update-user — a language
// on offer or null; anything else is a 400 VALIDATION_ERROR that changes nothing.
import { beforeAll, describe, expect, it } from "vitest";
import { ApiClient, eventually, PASSWORD, uniqueEmail } from "../support/client";
import { query } from "../support/sql";
import { sharedServer, type TestServer } from "../support/server";

const ADMIN_EMAIL = uniqueEmail("locale-boss");
let server: TestServer;
let admin: ApiClient;

beforeAll(async () => {
  server = await sharedServer({ env: { AUTH_EMAIL_VERIFICATION: "off", AUTH_ADMIN_EMAILS: ADMIN_EMAIL } });
  // AUTH_ADMIN_EMAILS makes a verified address an admin at its next sign-in.
  admin = new ApiClient(server.baseUrl);
  expect((await admin.post("/api/auth/sign-up/email", { name: "Locale Boss", email: ADMIN_EMAIL, password: PASSWORD })).status).toBe(200);
  await query(server.database, `UPDATE "user" SET "emailVerified" = (1=1) WHERE "email" = ?`, [ADMIN_EMAIL]);
  expect((await admin.post("/api/auth/sign-in/email", { email: ADMIN_EMAIL, password: PASSWORD })).status).toBe(200);
  await eventually(
    () => admin.get("/api/auth/get-session?disableCookieCache=true"),
    (answer) => answer.body?.user?.role === "admin",
  );
}, 60_000);

/** An account made by its owner, in a language (or, with `null`, one made before there were any). */
async function member(locale: string | null) {
  const email = uniqueEmail("locale-member");
  const answer = await new ApiClient(server.baseUrl).post("/api/auth/sign-up/email", { name: "Mia", email, password: PASSWORD, ...(locale ? { locale } : {}) });
  expect(answer.status, answer.text).toBe(200);
  if (locale === null) await query(server.database, `UPDATE "user" SET "locale" = NULL WHERE "email" = ?`, [email]);
  return { id: answer.body.user.id as string, email };
}

const getUser = async (id: string) => (await admin.get(`/api/auth/admin/get-user?id=${encodeURIComponent(id)}`)).body;

describe("the admin API's user objects and locale", () => {
  it("get-user and list-users carry the account's language, null when it has none", async () => {
    const german = await member("de");
    const older = await member(null);
    expect((await getUser(german.id)).locale).toBe("de");
    expect(await getUser(older.id)).toHaveProperty("locale", null);
    for (const [account, locale] of [[german, "de"], [older, null]] as const) {
      const listed = await admin.get(`/api/auth/admin/list-users?searchValue=${encodeURIComponent(account.email)}&searchField=email`);
      expect(listed.status).toBe(200);
      expect(listed.body.users).toEqual([expect.objectContaining({ id: account.id, locale })]);
    }
  });

  it("update-user sets and clears the language, and its answer carries it", async () => {
    const { id } = await member("fr");
    const set = await admin.post("/api/auth/admin/update-user", { userId: id, data: { locale: "he" } });
    expect(set.status, set.text).toBe(200);
    expect(set.body.locale).toBe("he");
    expect((await getUser(id)).locale).toBe("he");
    const cleared = await admin.post("/api/auth/admin/update-user", { userId: id, data: { locale: null } });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.locale).toBeNull();
    expect((await getUser(id)).locale).toBeNull();
  });

  it("update-user refuses a language not on offer with 400 VALIDATION_ERROR, and changes nothing", async () => {
    const { id } = await member("es");
    for (const locale of ["xx", "DE", "de-AT", "", 42]) {
      const refused = await admin.post("/api/auth/admin/update-user", { userId: id, data: { locale, name: "Changed" } });
      expect(refused.status, String(locale)).toBe(400);
      expect(refused.body.code).toBe("VALIDATION_ERROR");
    }
    const user = await getUser(id);
    expect(user.locale).toBe("es");
    expect(user.name).toBe("Mia");
  });

  it("create-user carries the language: none unless given, a given one saved, a bad one refused", async () => {
    const plain = await admin.post("/api/auth/admin/create-user", { email: uniqueEmail("made"), password: PASSWORD, name: "Made" });
    expect(plain.status, plain.text).toBe(200);
    expect(plain.body.user).toHaveProperty("locale", null);
    const arabic = await admin.post("/api/auth/admin/create-user", { email: uniqueEmail("made"), password: PASSWORD, name: "Made", data: { locale: "ar" } });
    expect(arabic.status, arabic.text).toBe(200);
    expect(arabic.body.user.locale).toBe("ar");
    expect((await getUser(arabic.body.user.id)).locale).toBe("ar");
    const email = uniqueEmail("made");
    const refused = await admin.post("/api/auth/admin/create-user", { email, password: PASSWORD, name: "Made", data: { locale: "klingon" } });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("VALIDATION_ERROR");
    const listed = await admin.get(`/api/auth/admin/list-users?searchValue=${encodeURIComponent(email)}&searchField=email`);
    expect(listed.body.users).toEqual([]);
  });

  it("while an admin acts as someone, the pages are in the admin's saved language, not the account's", async () => {
    const { id } = await member("he");
    expect((await admin.post("/api/auth/update-user", { locale: "de" })).status).toBe(200);
    const started = await admin.post("/api/auth/admin/impersonate-user", { userId: id });
    expect(started.status, started.text).toBe(200);
    try {
      const page = await admin.get("/account", { "accept-language": "es" });
      expect(page.status).toBe(200);
      expect(page.text).toMatch(/<html lang="de" dir="ltr">/);
    } finally {
      expect((await admin.post("/api/auth/admin/stop-impersonating", {})).status).toBe(200);
    }
    // Acting changed neither language.
    expect((await getUser(id)).locale).toBe("he");
    expect((await admin.get("/account")).text).toMatch(/<html lang="de" dir="ltr">/);
  });
});
