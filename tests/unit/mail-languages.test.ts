// Issue 44, "Mails": every template in every shipped language — subject, text and HTML parts in the recipient's
// language, <html lang dir>, a Content-Language header, dates and lifetimes by Intl and ICU plurals, names
// isolated, and nothing left in English in the other languages but names, addresses, URLs and codes.
import { describe, expect, test } from "vitest";
import { adminNotices, type AdminAct } from "~/email/admin-notices.server";
import { mailTranslator } from "~/email/language.server";
import { describeLifetime } from "~/email/layout.server";
import { smtpMessage, writeMail, type MailDraft } from "~/email/mailer.server";
import { emails } from "~/email/templates.server";
import { passkeySignUpMails } from "~/auth/passkey/mail.server";
import { directionOf, SHIPPED_LANGUAGES } from "~/i18n/languages";

const at = new Date("2026-12-01T23:21:00Z");
const until = new Date("2026-12-02T00:21:00Z");
const to = "ada@example.com";
const url = "http://localhost:3000/api/auth/reset-password/Tok3n?callbackURL=%2F";
const activity = "http://localhost:3000/account/activity";
const reset = "http://localhost:3000/forgot-password";
const links = { activityUrl: activity, resetUrl: reset, signInUrl: "http://localhost:3000/sign-in" };
const adminActs: Record<string, AdminAct> = {
  passwordSet: { kind: "password_set" },
  signedOutAll: { kind: "signed_out", scope: "all" },
  signedOutOthers: { kind: "signed_out", scope: "others" },
  signedOutOne: { kind: "signed_out", scope: "one" },
  bannedUntil: { kind: "banned", until },
  bannedForGood: { kind: "banned", until: null },
  unbanned: { kind: "unbanned" },
  madeAdmin: { kind: "role_changed", nowAdmin: true },
  noLongerAdmin: { kind: "role_changed", nowAdmin: false },
  emailChanged: { kind: "email_changed", from: to, to: "ada@example.org" },
  otherPasskey: { kind: "other", event: "passkey_added" },
};

/** Every template, in each of the shapes its words can take. */
const drafts: Record<string, MailDraft> = {
  verifyEmail: emails.verifyEmail(to, url, 3600),
  resetPassword: emails.resetPassword(to, url, 3600),
  signedOutEverywhere: emails.signedOutEverywhere(to, url, 3600, { at }),
  signedOutEverywhereRefusingChange: emails.signedOutEverywhere(to, url, 3600, { at, emailChangeRefused: "eve@example.net" }),
  signedOutEverywhereWithoutPassword: emails.signedOutEverywhereWithoutPassword(to, links.signInUrl, { at }),
  accountLockedNewDevices: emails.accountLocked(to, { scope: "new_devices", until }, activity),
  accountLockedDevice: emails.accountLocked(to, { scope: "device", until }, activity),
  passwordWasReset: emails.passwordWasReset(to, at, activity, true),
  passwordWasResetKeepingSessions: emails.passwordWasReset(to, at, activity, false),
  confirmEmailChange: emails.confirmEmailChange(to, "ada@example.org", url, 86_400),
  signUpAttempt: emails.signUpAttempt(to, links.signInUrl),
  confirmAccountDeletion: emails.confirmAccountDeletion(to, url, 1800),
  invitation: emails.invitation(to, "Acme", "Grace Hopper", "member", url, 172_800),
  invitationToTeams: emails.invitation(to, "Acme", "Grace Hopper", "admin,billing", url, 172_800, ["Rot", "Blau"]),
  invitationToOneTeam: emails.invitation(to, "Acme", "Grace Hopper", "owner", url, 172_800, ["Rot"]),
  newPasskey: emails.newWayIn(to, { kind: "passkey" }, at, "http://localhost:3000/account/passkeys", activity),
  newPassword: emails.newWayIn(to, { kind: "password" }, at, "http://localhost:3000/account/security", activity),
  newLinkedAccount: emails.newWayIn(to, { kind: "linked", provider: "GitHub" }, at, "http://localhost:3000/account/linked-accounts", activity),
  newApplication: emails.newWayIn(to, { kind: "application", application: "Zeiterfassung" }, at, "http://localhost:3000/account/applications", activity),
  newDevice: emails.securityMailNewDevice(to, { at, device: "Chrome on Linux", how: { method: "password" }, ipAddress: "203.0.113.9" }, activity, reset),
  newDeviceBySocial: emails.securityMailNewDevice(to, { at, device: "Unknown device", how: { method: "social", provider: "GitHub" }, ipAddress: null }, activity, reset),
  passwordChanged: emails.securityMailChange(to, "password_changed", at, activity),
  passwordReset: emails.securityMailChange(to, "password_reset", at, activity),
  twoFactorDisabled: emails.securityMailChange(to, "two_factor_disabled", at, activity),
  emailChanged: emails.securityMailEmailChanged(to, "ada@example.org", at, activity, { locale: "de" }),
  twoFactorCode: emails.twoFactorCode(to, "482913", 300),
  reverifyCode: emails.reverifyCode(to, "482913", 600),
  newDeviceCode: emails.newDeviceCode(to, "482913", 300, { at, device: "Firefox on Windows", ipAddress: "203.0.113.9" }),
  signInCode: emails.emailOtp(to, "482913", "sign-in", 300),
  verificationCode: emails.emailOtp(to, "482913", "email-verification", 300),
  resetCode: emails.emailOtp(to, "482913", "forget-password", 60),
  passkeySignUpCode: passkeySignUpMails.code(to, "K7P2QX", 600),
  passkeySignUpAlreadyRegistered: passkeySignUpMails.alreadyRegistered(to),
  adminResetLink: adminNotices.resetLink(to, "localhost:3000", url, 3600),
  ...Object.fromEntries(Object.entries(adminActs).map(([name, act]) => [`admin.${name}`, adminNotices.act(to, "localhost:3000", act, at, links)])),
};

/** What may rightly stay as written: addresses, URLs, codes, names, the product's and providers' names, devices. */
function withoutVerbatim(text: string): string {
  return text
    .replace(/https?:\/\/\S+/g, " ")
    .replace(/\S+@\S+/g, " ")
    .replace(/“[^”]*”/g, " ")
    .replace(/\b(Latchkey|UTC|IP|GitHub|Chrome|Firefox|Linux|Windows|Zeiterfassung|localhost:3000|482913|K7P2QX|203\.0\.113\.9)\b/g, " ");
}
/** Words only English has among the six languages ("was", "an", "has", "Link" are German or Spanish too). */
const ENGLISH_WORDS = /\b(the|your|you|this|that|and|with|expires|please|account|password|sign|if|email|device|been|not|would|choose)\b/i;

describe.each(SHIPPED_LANGUAGES)("mails in %s", (language) => {
  test.each(Object.keys(drafts))("%s", (name) => {
    const message = writeMail(drafts[name], language);
    expect(message.language).toBe(language);
    expect(smtpMessage(message).headers).toEqual({ "Content-Language": language });
    expect(message.html.startsWith(`<!doctype html><html lang="${language}" dir="${directionOf(language)}">`)).toBe(true);
    expect(message.subject.endsWith(" · Latchkey")).toBe(true);
    // No key left unformatted (a key the catalog lacks shows as itself).
    expect(`${message.subject}\n${message.text}`).not.toMatch(/\bmail\.[a-zA-Z]/);
    if (language !== "en") {
      for (const part of [message.subject, message.text, message.html.replace(/<[^>]+>/g, " ")]) {
        expect(withoutVerbatim(part), part).not.toMatch(ENGLISH_WORDS);
      }
    }
    expect({ subject: message.subject, text: message.text, html: message.html }).toMatchSnapshot();
  });
});

describe("mail words", () => {
  test("dates are the reader's, in UTC, and said to be", () => {
    const german = writeMail(emails.passwordWasReset(to, at, activity, false), "de");
    expect(german.text).toContain("1. Dezember 2026 um 23:21 UTC");
    expect(german.text).toContain("koordinierte Weltzeit");
    const english = writeMail(emails.passwordWasReset(to, at, activity, false), "en");
    expect(english.text).toContain("on 1 December 2026 at 23:21 UTC.");
    expect(english.text).toContain("Times in this message are in UTC (Coordinated Universal Time).");
  });

  test("lifetimes by each language's plural rules", () => {
    const say = (language: string, seconds: number) => describeLifetime(mailTranslator(language), seconds);
    expect([3600, 86_400, 60, 600, 1].map((s) => say("en", s))).toEqual(["1 hour", "24 hours", "1 minute", "10 minutes", "1 second"]);
    expect([3600, 7200, 3 * 3600, 11 * 3600, 100 * 3600].map((s) => say("ar", s))).toEqual(["ساعة واحدة", "ساعتين", "3 ساعات", "11 ساعة", "100 ساعة"]);
    expect([3600, 7200, 24 * 3600].map((s) => say("he", s))).toEqual(["שעה אחת", "שעתיים", "24 שעות"]);
    expect(say("de", 86_400)).toBe("24 Stunden");
  });

  test("a device is composed in the reader's language", () => {
    expect(writeMail(drafts.newDevice, "de").text).toContain("(Chrome unter Linux, IP-Adresse 203.0.113.9)");
    expect(writeMail(drafts.newDeviceBySocial, "fr").text).toContain("avec GitHub depuis un nouvel appareil (Appareil inconnu)");
  });

  test("names are quoted and isolated; addresses, URLs and codes read left to right", () => {
    const invitation = writeMail(drafts.invitationToTeams, "ar");
    expect(invitation.text).toContain("“Grace Hopper”");
    expect(invitation.html).toContain("<bdi>“Grace Hopper”</bdi>");
    expect(invitation.html).toContain("<bdi>“Acme”</bdi>");
    expect(invitation.text).toMatch(/بدور مسؤول و“billing”/);
    expect(invitation.text).toContain("“Rot” و“Blau”");
    const verify = writeMail(drafts.verifyEmail, "he");
    expect(verify.html).toContain(`<span dir="ltr">${to}</span>`);
    expect(writeMail(drafts.twoFactorCode, "ar").html).toContain('<p dir="ltr" style="font-size:1.5rem;font-weight:700;letter-spacing:.2em">482913</p>');
  });

  test("a user-written name cannot end the isolate or write markup", () => {
    const message = writeMail(emails.invitation(to, "<b>Acme</b>\u202e", "Eve", "member", url, 60), "he");
    expect(message.html).toContain("<bdi>“&lt;b&gt;Acme&lt;/b&gt;”</bdi>");
  });

  test("English keeps the words existing readers and clients know", () => {
    const english = writeMail(drafts.invitation, "en");
    expect(english.subject).toBe("You are invited to join an organization · Latchkey");
    expect(english.text).toContain("“Grace Hopper” invited you to join the organization named “Acme” as member. Open the invitation");
    expect(english.text).toContain("This link expires in 48 hours and works once.");
    expect(writeMail(drafts.invitationToTeams, "en").text).toContain("as admin and “billing”, in the teams “Rot” and “Blau”.");
  });
});
