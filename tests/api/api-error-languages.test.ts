// Issue 44: AUTH_TRANSLATE_API_ERRORS=on answers as Better Auth with @better-auth/i18n: the same code, the message
// in the request's language (a signed-in caller's saved language first) and originalMessage in English. An
// operator's AUTH_MESSAGES_DIR override reaches API messages too. Off, the English is untouched (user-locale.test.ts).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, uniqueEmail } from "../support/client";
import { sharedServer, type TestServer } from "../support/server";

let server: TestServer;
beforeAll(async () => {
  const messages = mkdtempSync(path.join(tmpdir(), "latchkey-api-messages-"));
  writeFileSync(path.join(messages, "fr.json"), JSON.stringify({ "apiError.INVALID_EMAIL_OR_PASSWORD": "Identifiants refusés par Exemple" }));
  server = await sharedServer({ env: { AUTH_EMAIL_VERIFICATION: "off", AUTH_TRANSLATE_API_ERRORS: "on", AUTH_MESSAGES_DIR: messages } });
});

const wrongSignIn = (language: string) =>
  new ApiClient(server.baseUrl).post("/api/auth/sign-in/email", { email: uniqueEmail("nobody"), password: "wrong password" }, { "accept-language": language });

describe("API error messages in the request's language", () => {
  it("keeps the code and gives the English as originalMessage", async () => {
    const german = await wrongSignIn("de-DE, en;q=0.5");
    expect(german.status).toBe(401);
    expect(german.body).toEqual({ code: "INVALID_EMAIL_OR_PASSWORD", message: "Ungültige E-Mail-Adresse oder Passwort", originalMessage: "Invalid email or password" });
    const arabic = await wrongSignIn("ar");
    expect(arabic.body.code).toBe("INVALID_EMAIL_OR_PASSWORD");
    expect(arabic.body.message).toBe("البريد الإلكتروني أو كلمة المرور غير صالحة");
    const hebrew = await wrongSignIn("he");
    expect(hebrew.body.message).toBe("כתובת האימייל או הסיסמה שגויות");
  });

  it("English, or a language not on offer, stays the specification's English", async () => {
    for (const language of ["en-GB", "ja", ""]) {
      expect((await wrongSignIn(language)).body, language).toEqual({ code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" });
    }
  });

  it("an operator's override reaches the API", async () => {
    expect((await wrongSignIn("fr")).body).toEqual({ code: "INVALID_EMAIL_OR_PASSWORD", message: "Identifiants refusés par Exemple", originalMessage: "Invalid email or password" });
  });

  it("a signed-in caller's saved language beats the header; the field details stay in originalMessage", async () => {
    const client = new ApiClient(server.baseUrl);
    const signUp = await client.post("/api/auth/sign-up/email", { name: "Noor", email: uniqueEmail("ar"), password: PASSWORD, locale: "ar" });
    expect(signUp.status, signUp.text).toBe(200);
    const refused = await client.post("/api/auth/update-user", { locale: "xx" }, { "accept-language": "de" });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("VALIDATION_ERROR");
    expect(refused.body.message).toBe("خطأ في التحقق");
    expect(refused.body.originalMessage).toMatch(/^\[body\.locale\]/);
  });
});
