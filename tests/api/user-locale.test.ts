// Issue 44: user.locale on the wire (Better Auth's userLocaleField). Sign-up and update-user take a language on
// offer or null; anything else is a 400 VALIDATION_ERROR that changes nothing. Without `locale`, sign-up keeps the
// language it was made in (Accept-Language here). Codes never change under any Accept-Language.
import { describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, uniqueEmail } from "../support/client";
import { beforeAll } from "vitest";
import { sharedServer, type TestServer } from "../support/server";

let server: TestServer;
beforeAll(async () => {
  server = await sharedServer({ env: { AUTH_EMAIL_VERIFICATION: "off" } });
});

async function signedUp(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const client = new ApiClient(server.baseUrl);
  const answer = await client.post("/api/auth/sign-up/email", { name: "Lea", email: uniqueEmail("locale"), password: PASSWORD, ...body }, headers);
  return { client, answer };
}

describe("user.locale", () => {
  it("is saved from sign-up's locale, shown by get-session, changed and cleared by update-user", async () => {
    const { client, answer } = await signedUp({ locale: "ar" });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.user.locale).toBe("ar");
    expect((await client.get("/api/auth/get-session")).body.user.locale).toBe("ar");
    expect((await client.post("/api/auth/update-user", { locale: "de" })).status).toBe(200);
    expect((await client.get("/api/auth/get-session?disableCookieCache=true")).body.user.locale).toBe("de");
    expect((await client.post("/api/auth/update-user", { locale: null })).status).toBe(200);
    expect((await client.get("/api/auth/get-session?disableCookieCache=true")).body.user.locale).toBeNull();
  });

  it("without locale, sign-up keeps the language it was made in", async () => {
    const { answer } = await signedUp({}, { "accept-language": "ja, he;q=0.8, fr;q=0.5" });
    expect(answer.body.user.locale).toBe("he");
    const plain = await signedUp({});
    expect(plain.answer.body.user.locale).toBe("en");
  });

  it("refuses a language not on offer with 400 VALIDATION_ERROR, and changes nothing", async () => {
    for (const locale of ["xx", "DE", "de-AT", "", 42]) {
      const { answer } = await signedUp({ locale });
      expect(answer.status, String(locale)).toBe(400);
      expect(answer.body.code).toBe("VALIDATION_ERROR");
    }
    const { client } = await signedUp({ locale: "fr" });
    const refused = await client.post("/api/auth/update-user", { locale: "klingon", name: "Changed" });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("VALIDATION_ERROR");
    const session = (await client.get("/api/auth/get-session?disableCookieCache=true")).body;
    expect(session.user.locale).toBe("fr");
    expect(session.user.name).toBe("Lea");
  });

  it("error codes and English messages do not change under any Accept-Language", async () => {
    for (const language of ["de", "ar", "he, fr;q=0.5", "*"]) {
      const answer = await new ApiClient(server.baseUrl).post("/api/auth/sign-in/email", { email: uniqueEmail("nobody"), password: "wrong password" }, { "accept-language": language });
      expect(answer.body, language).toEqual({ code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" });
    }
  });
});
