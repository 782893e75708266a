// Words for people (ADR 014): page messages carry the number or the way on; relative times read naturally.
import { describe, expect, it } from "vitest";
import { AuthError } from "~/auth/errors";
import { relativeTime } from "~/components/time";
import { accountNav, oneOf } from "~/components/account-nav";
import { refusalPage } from "~/http/error-page.server";
import { socialSignInProblem, wordsFor } from "~/http/page-messages.server";

describe("wordsFor", () => {
  it("says how long to wait, from Retry-After", () => {
    expect(wordsFor(new AuthError("TOO_MANY_REQUESTS", { headers: { "Retry-After": "10" } }))).toBe("Too many attempts. Try again in 10 seconds.");
    expect(wordsFor(new AuthError("TOO_MANY_REQUESTS", { headers: { "Retry-After": "1" } }))).toBe("Too many attempts. Try again in 1 second.");
  });

  it("gives the number and the way on", () => {
    expect(wordsFor(new AuthError("PASSWORD_TOO_SHORT"))).toBe("Use at least 8 characters.");
    expect(wordsFor(new AuthError("USER_ALREADY_EXISTS"))).toBe("An account with this email already exists. Sign in or reset your password.");
    expect(wordsFor(new AuthError("INVALID_PASSWORD"))).toBe("That isn't your current password.");
  });

  it("words a refused e-mailed code for people, with the way on (the JSON API keeps 'Invalid OTP' and 'OTP expired')", () => {
    expect(wordsFor(new AuthError("INVALID_OTP"))).toBe("That code is not right. Check the email and try again, or send a new code.");
    expect(wordsFor(new AuthError("OTP_EXPIRED"))).toBe("That code has expired: codes work for 5 minutes. Send a new code.");
    expect(new AuthError("INVALID_OTP").message).toBe("Invalid OTP");
    expect(new AuthError("OTP_EXPIRED").message).toBe("OTP expired");
  });

  it("falls back to the catalogue's message for a code it does not word", () => {
    expect(wordsFor(new AuthError("DELETE_USER_IS_DISABLED"))).toBe("Delete user is disabled");
  });
});

describe("socialSignInProblem", () => {
  it("words a provider's ?error= for people, and says nothing without one", () => {
    expect(socialSignInProblem(null)).toBeNull();
    expect(socialSignInProblem("access_denied")).toBe("You cancelled the sign-in at the provider. Nothing was changed.");
    expect(socialSignInProblem("too_many_requests")).toBe(wordsFor(new AuthError("TOO_MANY_REQUESTS")));
  });

  it("reads any other value, an object's own property names included, as a general failure", () => {
    for (const code of ["something_new", "constructor", "__proto__", "toString"]) {
      expect(socialSignInProblem(code)).toBe("Signing in with the provider did not work. Please try again.");
    }
  });
});

describe("relativeTime", () => {
  const now = new Date("2026-11-23T12:00:00Z");
  const ago = (seconds: number) => relativeTime(new Date(now.getTime() - seconds * 1000), now);
  it("reads like a person would say it", () => {
    expect(ago(10)).toBe("just now");
    expect(ago(60)).toBe("1 minute ago");
    expect(ago(5 * 60)).toBe("5 minutes ago");
    expect(ago(3 * 3600)).toBe("3 hours ago");
    expect(ago(30 * 3600)).toBe("yesterday");
    expect(ago(3 * 86400)).toBe("3 days ago");
    expect(ago(60 * 86400)).toBe("on 2026-09-24");
  });
});

describe("the account navigation", () => {
  it("names only the configured providers, and leaves Linked accounts out when there are none", () => {
    expect(oneOf(["GitHub"])).toBe("GitHub");
    expect(oneOf(["GitHub", "Google", "Test SSO"])).toBe("GitHub, Google or Test SSO");
    const linked = (names: string[]) => accountNav(names).find((entry) => entry.to === "/account/linked-accounts");
    expect(linked([])).toBeUndefined();
    expect(linked(["Test SSO"])?.description).toBe("Sign in with Test SSO.");
    expect(linked(["GitHub", "Google"])?.description).toBe("Sign in with GitHub or Google.");
    expect(accountNav([]).map((entry) => entry.description ?? "").join(" ")).not.toMatch(/GitHub|Google/);
  });
});

describe("the server's own refusals", () => {
  it("are pages in words, titled 'Error: …', for a browser, and nothing (plain text stays) for anyone else", () => {
    for (const status of [400, 403, 405]) {
      const page = refusalPage(status, "text/html,application/xhtml+xml;q=0.9")!;
      expect(page.status).toBe(status);
      expect(page.headers["Content-Type"]).toBe("text/html; charset=utf-8");
      expect(page.body).toMatch(/<title>Error: [^<]+ · Latchkey<\/title>/);
      expect(page.body).not.toMatch(/Method Not Allowed|Bad Request/);
    }
    expect(refusalPage(405, "application/json")).toBeNull();
    expect(refusalPage(405, undefined)).toBeNull();
  });
});
