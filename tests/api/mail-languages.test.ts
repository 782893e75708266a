// Issue 44, "Mails": each mail is in its recipient's saved language — never in that of whoever caused it (a browser
// asking for a reset, an inviter, a sign-in from a browser in another language) — and an address without an
// account reads the operator's AUTH_DEFAULT_LANGUAGE. Content-Language names the language; <html lang dir> too.
// An operator's AUTH_MESSAGES_DIR override reaches mails as it reaches pages.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, uniqueEmail } from "../support/client";
import { mailCount, nextMail } from "../support/mail";
import type { Mailbox, ReceivedMail } from "../support/mailbox";
import { ORG, uniqueSlug } from "../support/organizations";
import { useServerWithMailbox, type TestServer } from "../support/server";
import { query } from "../support/sql";

let server: TestServer;
let mailbox: Mailbox;
const messages = mkdtempSync(path.join(tmpdir(), "latchkey-mail-messages-"));
writeFileSync(path.join(messages, "de.json"), JSON.stringify({ "mail.resetPassword.subject": "Neues Passwort für Beispiel GmbH" }));
// Spanish by default, so a mail in the default language cannot pass for one in English.
useServerWithMailbox({ AUTH_EMAIL_VERIFICATION: "off", AUTH_DEFAULT_LANGUAGE: "es", AUTH_MESSAGES_DIR: messages }, (running) => ({ server, mailbox } = running));

/** An account saved in `locale`, signed in from a browser that asks for `browserLanguage`. */
async function account(locale: string, browserLanguage: string, name = "Lea") {
  const client = new ApiClient(server.baseUrl);
  const email = uniqueEmail(`mail-${locale}`);
  const answer = await client.post("/api/auth/sign-up/email", { name, email, password: PASSWORD, locale }, { "accept-language": browserLanguage });
  expect(answer.status, answer.text).toBe(200);
  expect(answer.body.user.locale).toBe(locale);
  return { client, email };
}

function expectLanguage(mail: ReceivedMail, language: string, dir: "ltr" | "rtl") {
  expect(mail.language).toBe(language);
  expect(mail.html).toContain(`<html lang="${language}" dir="${dir}">`);
}

describe("mails in the recipient's language", () => {
  it("a reset asked for from a French browser reaches a German account in German (with the operator's words)", async () => {
    const { email } = await account("de", "de");
    const seen = mailCount(mailbox, email);
    const asked = await new ApiClient(server.baseUrl).post(
      "/api/auth/request-password-reset",
      { email, redirectTo: "/reset-password" },
      { "accept-language": "fr-FR, fr;q=0.9" },
    );
    expect(asked.status, asked.text).toBe(200);
    const mail = await nextMail(mailbox, email, undefined, seen);
    expectLanguage(mail, "de", "ltr");
    expect(mail.subject).toBe("Neues Passwort für Beispiel GmbH · Latchkey");
    expect(mail.text).toContain("Dieser Link läuft in 1 Stunde ab und funktioniert nur einmal.");
    expect(mail.text).not.toMatch(/mot de passe|your password/i);
  });

  it("a French inviter's invitations: German for a German account, the operator's default for a new address", async () => {
    const inviter = await account("fr", "fr", "Élodie");
    const slug = uniqueSlug("mail");
    const created = await inviter.client.post(`${ORG}/create`, { name: "Atelier", slug }, { "accept-language": "fr" });
    expect(created.status, created.text).toBe(200);
    const invite = async (email: string) => {
      const seen = mailCount(mailbox, email);
      const answer = await inviter.client.post(`${ORG}/invite-member`, { email, role: "admin", organizationId: created.body.id }, { "accept-language": "fr" });
      expect(answer.status, answer.text).toBe(200);
      return nextMail(mailbox, email, undefined, seen);
    };

    const german = await account("de", "de");
    const toGerman = await invite(german.email);
    expectLanguage(toGerman, "de", "ltr");
    expect(toGerman.subject).toBe("Einladung zu einer Organisation · Latchkey");
    expect(toGerman.text).toContain("“Élodie” hat Sie eingeladen, der Organisation “Atelier” mit der Rolle Administrator beizutreten.");

    const stranger = uniqueEmail("mail-new");
    const toStranger = await invite(stranger);
    expectLanguage(toStranger, "es", "ltr");
    expect(toStranger.subject).toBe("Te han invitado a unirte a una organización · Latchkey");
    expect(toStranger.text).toContain("“Élodie” te ha invitado a unirte a la organización llamada “Atelier” con el rol administrador.");
  });

  it("a sign-in from an Arabic browser to a Hebrew account sends the new-device mail in Hebrew", async () => {
    const { email } = await account("he", "he");
    const seen = mailCount(mailbox, email);
    const signedIn = await new ApiClient(server.baseUrl).post("/api/auth/sign-in/email", { email, password: PASSWORD }, { "accept-language": "ar" });
    expect(signedIn.status, signedIn.text).toBe(200);
    const mail = await nextMail(mailbox, email, undefined, seen);
    expectLanguage(mail, "he", "rtl");
    expect(mail.subject).toBe("התחברות חדשה לחשבון · Latchkey");
    expect(mail.text).toContain("עם סיסמה ממכשיר חדש");
    expect(mail.text).toContain("כתובת IP 127.0.0.1");
    expect(mail.text).toContain(`${server.baseUrl}/account/activity`);
    expect(mail.text).not.toMatch(/[\u0600-\u06FF]/); // nothing Arabic
  });

  it("an administrator reading French suspends a Hebrew account: the notice is in Hebrew", async () => {
    const admin = await account("fr", "fr", "Admin");
    await query(server.database, `UPDATE "user" SET "role" = 'admin' WHERE "email" = ?`, [admin.email]);
    const hebrew = await account("he", "he");
    const id = (await hebrew.client.get("/api/auth/get-session")).body.user.id as string;
    const seen = mailCount(mailbox, hebrew.email);
    const banned = await admin.client.post("/api/auth/admin/ban-user", { userId: id }, { "accept-language": "fr" });
    expect(banned.status, banned.text).toBe(200);
    const mail = await nextMail(mailbox, hebrew.email, undefined, seen);
    expectLanguage(mail, "he", "rtl");
    expect(mail.subject).toBe("החשבון הושעה · Latchkey");
  });

  it("an account with no saved language reads the operator's default; English readers keep English", async () => {
    const english = await account("en", "de");
    const seen = mailCount(mailbox, english.email);
    await new ApiClient(server.baseUrl).post("/api/auth/request-password-reset", { email: english.email, redirectTo: "/reset-password" }, { "accept-language": "de" });
    const mail = await nextMail(mailbox, english.email, undefined, seen);
    expectLanguage(mail, "en", "ltr");
    expect(mail.subject).toBe("Reset your password · Latchkey");
    expect(mail.text).toContain("This link expires in 1 hour and works once.");

    const unset = await account("de", "de");
    expect((await unset.client.post("/api/auth/update-user", { locale: null })).status).toBe(200);
    const before = mailCount(mailbox, unset.email);
    await new ApiClient(server.baseUrl).post("/api/auth/request-password-reset", { email: unset.email, redirectTo: "/reset-password" }, { "accept-language": "de" });
    const fallback = await nextMail(mailbox, unset.email, undefined, before);
    expectLanguage(fallback, "es", "ltr");
    expect(fallback.subject).toBe("Restablece tu contraseña · Latchkey");
  });
});
