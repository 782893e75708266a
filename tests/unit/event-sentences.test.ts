// Issue 44: every security event type has its own sentence in every shipped language, made from the catalogs with
// the event's stored details (names kept as written, dates and lists in the language), for the owner and for an
// admin reading the console; the API's event types and details are not touched.
import { describe, expect, it } from "vitest";
import { eventSentence, hasSentence, sentenceText } from "~/auth/security-events/sentences";
import { SECURITY_EVENT_TYPES } from "~/auth/security-events/types";
import { SHIPPED_CATALOGS } from "~/i18n/catalogs.server";
import { translator } from "~/i18n/format";
import { SHIPPED_LANGUAGES } from "~/i18n/languages";

/** Details as the events store them, every field a sentence may read filled in. */
const DETAILS = {
  method: "password",
  provider: "github",
  providerName: "GitHub",
  reason: "challenge",
  scope: "device",
  until: "2026-12-01T23:21:00.000Z",
  all: true,
  action: "/change-email",
  flow: "change",
  from: "old@example.com",
  to: "new@example.com",
  email: "ada@example.com",
  name: "Laptop",
  application: "Team Wiki",
  trusted: true,
  organizationName: "Acme",
  teamName: "Design",
  role: "billing",
  permissions: "team:create,team:update",
  byOther: true,
  providerId: "acme-sso",
  protocol: "saml",
  domain: "acme.example",
};

const english = translator("en", SHIPPED_CATALOGS.en);

describe.each(SHIPPED_LANGUAGES)("in %s", (language) => {
  const t = translator(language, SHIPPED_CATALOGS[language]);
  const other = t.t("event.other");
  it.each([...SECURITY_EVENT_TYPES])("%s has its own sentence, for the owner and for an admin", (type) => {
    expect(hasSentence(type)).toBe(true);
    for (const reader of ["owner", "admin"] as const) {
      for (const details of [DETAILS, {}]) {
        const text = sentenceText(t, eventSentence(type, details, reader));
        expect(text, `${type} ${JSON.stringify(details)}`).not.toBe(other);
        expect(text.length).toBeGreaterThan(3);
        if (language !== "en") expect(text, `${type} left in English`).not.toBe(sentenceText(english, eventSentence(type, details, reader)));
      }
    }
  });
  it("keeps user-written names as written and writes dates in the language", () => {
    expect(sentenceText(t, eventSentence("passkey_added", { name: "Laptop" }))).toContain("Laptop");
    expect(sentenceText(t, eventSentence("team_created", DETAILS))).toContain("Design");
    const locked = sentenceText(t, eventSentence("account_locked", DETAILS));
    expect(locked).toContain(t.dateTime(new Date(DETAILS.until)));
  });
});

it("says built-in roles in the reader's language and an organization's own roles as written", () => {
  const de = translator("de", SHIPPED_CATALOGS.de);
  const text = sentenceText(de, eventSentence("organization_member_role_changed", { organizationName: "Acme", from: "member", to: "admin,billing" }));
  expect(text).toBe("Ihre Rolle in „Acme“ von „Mitglied“ in „Administrator, billing“ geändert");
});

it("an unknown type is an account change, not an error", () => {
  expect(hasSentence("something_new")).toBe(false);
  expect(sentenceText(english, eventSentence("something_new", {}))).toBe("Account changed");
});
