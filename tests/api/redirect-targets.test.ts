// Redirect targets are judged after they are resolved (issue 6, item 1): every spelling that a browser would
// resolve to another site is refused on every route that takes one, and every Location the server sends is the
// resolved absolute URL on a trusted origin. The reset-link takeover (`/..//evil.example/steal`) is the case
// that motivated this file.
import { describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, signUp, uniqueEmail } from "../support/client";
import { expectNoNewMail, mailCount, nextMail } from "../support/mail";
import type { Mailbox } from "../support/mailbox";
import { useServerWithMailbox, type TestServer } from "../support/server";

/** Spellings of "another site" that a naive "starts with one slash" check lets through, and some classics. */
const HOSTILE = [
  "/..//evil.example/steal",
  "/.//evil.example/steal",
  "/%2e%2e//evil.example/steal",
  "/%2E%2E//evil.example/steal",
  "/a/../..//evil.example/steal",
  "/././/evil.example",
  "/.%2e//evil.example",
  "//evil.example/steal",
  "///evil.example/steal",
  "/\\evil.example/steal",
  "/..\\evil.example",
  "/\\/evil.example",
  "/%2F%2Fevil.example",
  "/%2f/evil.example",
  "/%5Cevil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  "https:evil.example",
  "https://evil.example/",
  "http://localhost:1@evil.example/",
  "https://app.example.com@evil.example/",
  "https://evil.example#https://app.example.com",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "data:text/html,hi",
  "evil.example",
];

let mailbox: Mailbox;
let server: TestServer;
useServerWithMailbox({ TRUSTED_ORIGINS: "https://app.example.com", AUTH_DELETE_ACCOUNT: "email" }, (running) => ({ server, mailbox } = running));

const client = () => new ApiClient(server.baseUrl);

/** A Location header must be absolute and on BASE_URL's origin or a trusted one. */
function expectTrustedLocation(location: string | null, label: string) {
  expect(location, label).not.toBeNull();
  const url = new URL(location!); // throws for a relative or protocol-relative value
  expect([server.baseUrl, "https://app.example.com"], label).toContain(url.origin);
  expect(url.pathname.startsWith("//"), label).toBe(false);
}

describe("hostile redirect targets are refused before anything happens", () => {
  it("POST /forget-password refuses them in redirectTo and sends no reset link", async () => {
    const { email } = await signUp(client());
    await mailbox.waitFor(email, /Verify/);
    const seen = mailCount(mailbox, email, /Reset/);
    for (const redirectTo of HOSTILE) {
      const response = await client().post("/api/auth/forget-password", { email, redirectTo });
      expect(response.status, redirectTo).toBe(403);
      expect(response.body, redirectTo).toEqual({ code: "INVALID_REDIRECTURL", message: "Invalid redirectURL" });
    }
    await expectNoNewMail(mailbox, email, mailCount(mailbox, email));
    expect(mailCount(mailbox, email, /Reset/)).toBe(seen);
  });

  it.each([
    ["GET /verify-email", (target: string) => `/api/auth/verify-email?token=bad&callbackURL=${encodeURIComponent(target)}`],
    ["GET /reset-password/{token}", (target: string) => `/api/auth/reset-password/not-a-token?callbackURL=${encodeURIComponent(target)}`],
    ["GET /delete-user/callback", (target: string) => `/api/auth/delete-user/callback?token=bad&callbackURL=${encodeURIComponent(target)}`],
  ])("%s answers 403 without a Location for every spelling", async (_label, path) => {
    for (const target of HOSTILE) {
      const response = await client().get(path(target));
      expect(response.status, target).toBe(403);
      expect(response.body.code, target).toBe("INVALID_CALLBACKURL");
      expect(response.headers.get("location"), target).toBeNull();
    }
  });

  it("every body that names a callbackURL refuses them, signed in or not", async () => {
    const user = await signUp(client());
    const signedIn = client();
    expect((await signedIn.post("/api/auth/sign-in/email", { email: user.email, password: PASSWORD })).status).toBe(200);
    const calls: Array<[ApiClient, string, Record<string, unknown>]> = [
      [client(), "/api/auth/sign-in/email", { email: user.email, password: PASSWORD }],
      [client(), "/api/auth/sign-up/email", { name: "X", email: uniqueEmail("redirect"), password: PASSWORD }],
      [client(), "/api/auth/send-verification-email", { email: user.email }],
      [signedIn, "/api/auth/change-email", { newEmail: uniqueEmail("redirect") }],
      [signedIn, "/api/auth/delete-user", {}],
    ];
    for (const [caller, path, body] of calls) {
      for (const callbackURL of HOSTILE) {
        const response = await caller.post(path, { ...body, callbackURL });
        expect(response.status, `${path} ${callbackURL}`).toBe(403);
        expect(response.body.code, `${path} ${callbackURL}`).toBe("INVALID_CALLBACKURL");
        expect(response.setCookies.filter((c) => !/max-age=0/i.test(c)), `${path} ${callbackURL}`).toEqual([]);
      }
    }
  });
});

describe("what the server sends is the resolved absolute URL", () => {
  it("the e-mailed reset link redirects to an absolute URL on this site, token and all", async () => {
    const { email } = await signUp(client());
    const seen = mailCount(mailbox, email, /Reset/);
    expect((await client().post("/api/auth/forget-password", { email, redirectTo: "/choose/../choose-password?x=1" })).status).toBe(200);
    const link = (await nextMail(mailbox, email, /Reset/, seen)).links[0];
    const response = await client().get(link);
    expect(response.status).toBe(302);
    const location = response.headers.get("location");
    expectTrustedLocation(location, "reset link");
    const url = new URL(location!);
    expect(url.pathname).toBe("/choose-password");
    expect(url.searchParams.get("x")).toBe("1");
    expect(url.searchParams.get("token")).toMatch(/^[A-Za-z0-9]{24}$/);
  });

  it.each([
    "/welcome",
    "/welcome?tab=2#top",
    "/a/./b/../welcome",
    "https://app.example.com/welcome",
  ])("redirects with callbackURL=%s go to the absolute, resolved URL", async (target) => {
    const expected = new URL(target, server.baseUrl);
    for (const path of [
      `/api/auth/verify-email?token=bad&callbackURL=${encodeURIComponent(target)}`,
      `/api/auth/reset-password/not-a-token?callbackURL=${encodeURIComponent(target)}`,
    ]) {
      const response = await client().get(path);
      expect(response.status, path).toBe(302);
      const location = response.headers.get("location");
      expectTrustedLocation(location, path);
      const url = new URL(location!);
      expect(url.origin + url.pathname, path).toBe(expected.origin + expected.pathname);
      expect(url.searchParams.get("error"), path).not.toBeNull();
    }
  });
});

describe("page redirects after sign-in and sign-up", () => {
  /** Posts a page form as a browser on this site would. */
  const postForm = (path: string, fields: Record<string, string>) =>
    fetch(new URL(path, server.baseUrl), {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.baseUrl },
      body: new URLSearchParams(fields),
    });

  it("a hostile redirectTo on /sign-in falls back to the account page on this site", async () => {
    const { email } = await signUp(client());
    for (const redirectTo of HOSTILE) {
      const response = await postForm("/sign-in", { email, password: PASSWORD, redirectTo });
      expect(response.status, redirectTo).toBe(302);
      expect(response.headers.get("location"), redirectTo).toBe(`${server.baseUrl}/account`);
    }
  });

  it("a safe redirectTo on /sign-in and /sign-up is followed as an absolute URL on this site", async () => {
    const { email } = await signUp(client());
    const signIn = await postForm("/sign-in", { email, password: PASSWORD, redirectTo: "/account/../account?tab=1" });
    expect(signIn.headers.get("location")).toBe(`${server.baseUrl}/account?tab=1`);
    const signUpResponse = await postForm("/sign-up", { name: "Page", email: uniqueEmail("page"), password: PASSWORD, redirectTo: "/account" });
    expect(signUpResponse.headers.get("location")).toBe(`${server.baseUrl}/account`);
  });
});
