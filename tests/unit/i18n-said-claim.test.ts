// The claim notice (ADR 028) in every language: a list inside a list, often after another sentence, said item by
// item with the language's own list (app/i18n/said-claim.ts). English stays exactly what the code wrote.
import { describe, expect, test } from "vitest";
import type { Ended } from "~/auth/account/claim.server";
import { SHIPPED_CATALOGS } from "~/i18n/catalogs.server";
import { translator } from "~/i18n/format";
import { SHIPPED_LANGUAGES } from "~/i18n/languages";
import { claimNotice } from "~/http/page-messages.server";

const source = Object.fromEntries(Object.entries(SHIPPED_CATALOGS.en).filter(([key]) => key.startsWith("said.")));
const nothing: Ended = { password: false, sessions: 0, passkeys: 0, twoFactor: false, linkedAccounts: [], applications: 0 };
const everything: Ended = { password: true, sessions: 3, passkeys: 2, twoFactor: true, linkedAccounts: ["github", "google", "github"], applications: 1 };
const notices = [
  claimNotice(everything, "signed-in")!,
  claimNotice(everything, "signed-out")!,
  claimNotice({ ...nothing, password: true, linkedAccounts: ["github"] }, "new-password")!,
  claimNotice({ ...nothing, passkeys: 1, sessions: 1 }, "signed-out")!,
];
/** English words of the notice that must not survive in another language. */
const ENGLISH = /we removed|the password|passkeys?\b|two-factor authentication|sign-ins?\b|signed-in session|the access of|Set a password|choose a new one|\band\b/;

test("the notices are what the code writes", () => {
  expect(notices[0].text).toContain("the password, 2 passkeys, two-factor authentication, the GitHub and Google sign-ins, 3 signed-in sessions and the access of 1 application.");
  expect(claimNotice(nothing, "signed-in")).toBeNull();
});

test("in English a notice is shown as written", () => {
  const t = translator("en", SHIPPED_CATALOGS.en);
  for (const notice of notices) expect(t.said(notice.text)).toBe(notice.text);
});

describe.each(SHIPPED_LANGUAGES.filter((language) => language !== "en"))("in %s", (language) => {
  const t = translator(language, SHIPPED_CATALOGS[language], source);
  test("each notice, its links, and a notice after another sentence, with no English left", () => {
    // As the invitation page and the reset page write them, around another sentence.
    const around = [
      { text: `You joined Acme. ${notices[1].text}`, link: notices[1].link },
      { text: `Your password was reset. ${notices[2].text} Sign in with the new password.` },
    ];
    for (const notice of [...notices, ...around]) {
      const said = t.said(notice.text);
      expect(said.replace(/GitHub|Google|Acme/g, ""), said).not.toMatch(ENGLISH);
      if (notice.link) expect(t.said(notice.link.text)).not.toBe(notice.link.text);
    }
    const all = t.said(notices[0].text);
    for (const kept of ["GitHub", "Google"]) expect(all).toContain(kept);
    expect(all).toContain(t.list(["GitHub", "Google"]));
    expect(t.said(`You joined Acme. ${notices[1].text}`)).toContain("Acme");
  });
});
