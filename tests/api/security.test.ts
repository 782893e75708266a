// Request-origin (CSRF) checks and callback-URL checks.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, signUp, uniqueEmail } from "../support/client";
import { COOKIE, setCookie } from "../support/cookies";
import { sharedServer, type TestServer } from "../support/server";
import { count } from "../support/sql";

const INVALID_ORIGIN = { code: "INVALID_ORIGIN", message: "Invalid origin" };
const MISSING_ORIGIN = { code: "MISSING_OR_NULL_ORIGIN", message: "Missing or null Origin" };
const INVALID_CALLBACK = { code: "INVALID_CALLBACKURL", message: "Invalid callbackURL" };

let server: TestServer;
let email: string;
beforeAll(async () => {
  server = await sharedServer({ env: { TRUSTED_ORIGINS: "https://*.example.com, https://partner.example.org/, *.hostonly.test" } });
  email = (await signUp(new ApiClient(server.baseUrl))).email;
});
afterAll(async () => {
  await server?.stop();
});

/** A signed-in client whose requests carry `origin` (null: no Origin header). */
async function signedIn(origin: string | null) {
  const client = new ApiClient(server.baseUrl);
  const response = await client.post("/api/auth/sign-in/email", { email, password: PASSWORD });
  expect(response.status).toBe(200);
  const other = new ApiClient(server.baseUrl, origin);
  for (const [name, value] of client.cookies) other.cookies.set(name, value);
  return { client: other, token: response.body.token as string, own: client };
}

describe("origin check on cookie-carrying POSTs", () => {
  it("refuses a foreign Origin with 403 INVALID_ORIGIN and does nothing", async () => {
    const { client, token, own } = await signedIn("https://evil.test");
    const update = await client.post("/api/auth/update-user", { name: "Pwned" });
    expect(update.status).toBe(403);
    expect(update.body).toEqual(INVALID_ORIGIN);
    const signOut = await client.post("/api/auth/sign-out");
    expect(signOut.status).toBe(403);
    expect(signOut.body).toEqual(INVALID_ORIGIN);
    const revoke = await client.post("/api/auth/revoke-sessions");
    expect(revoke.status).toBe(403);
    // Still signed in, name unchanged.
    const session = await own.get("/api/auth/get-session");
    expect(session.body.session.token).toBe(token);
    expect(session.body.user.name).not.toBe("Pwned");
  });

  it("refuses a missing or null Origin with 403 MISSING_OR_NULL_ORIGIN", async () => {
    const { client } = await signedIn(null);
    const missing = await client.post("/api/auth/update-user", { name: "No Origin" });
    expect(missing.status).toBe(403);
    expect(missing.body).toEqual(MISSING_ORIGIN);
    const nullOrigin = await client.post("/api/auth/update-user", { name: "Null Origin" }, { origin: "null" });
    expect(nullOrigin.status).toBe(403);
    expect(nullOrigin.body).toEqual(MISSING_ORIGIN);
  });

  it("falls back to the Referer when there is no Origin", async () => {
    const { client } = await signedIn(null);
    const trusted = await client.post("/api/auth/update-user", { name: "Via Referer" }, { referer: `${server.baseUrl}/account` });
    expect(trusted.status).toBe(200);
    const foreign = await client.post("/api/auth/update-user", { name: "Evil Referer" }, { referer: "https://evil.test/page" });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual(INVALID_ORIGIN);
  });

  it("checks any Cookie header (even one without a session), and any named Origin even without cookies (login CSRF)", async () => {
    const withCookie = new ApiClient(server.baseUrl, "https://evil.test");
    withCookie.cookies.set("theme", "dark");
    const refused = await withCookie.post("/api/auth/sign-in/email", { email, password: PASSWORD });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(INVALID_ORIGIN);
    expect(setCookie(refused, COOKIE.sessionToken)).toBeUndefined();

    // A hidden cross-site form would sign the visitor into the attacker's account: refused.
    const crossSite = await new ApiClient(server.baseUrl, "https://evil.test").post("/api/auth/sign-in/email", { email, password: PASSWORD });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body).toEqual(INVALID_ORIGIN);
    expect(setCookie(crossSite, COOKIE.sessionToken)).toBeUndefined();

    // Servers and command-line clients send neither cookies nor Origin.
    const serverToServer = await new ApiClient(server.baseUrl, null).post("/api/auth/sign-in/email", { email, password: PASSWORD });
    expect(serverToServer.status).toBe(200);
  });

  it("matches a TRUSTED_ORIGINS entry without a scheme against the host, on any scheme", async () => {
    for (const origin of ["https://app.hostonly.test", "http://app.hostonly.test"]) {
      const { client } = await signedIn(origin);
      expect((await client.post("/api/auth/update-user", { name: "Host only" })).status, origin).toBe(200);
    }
    const { client } = await signedIn("https://hostonly.test.evil.com");
    expect((await client.post("/api/auth/update-user", { name: "Nope" })).body).toEqual(INVALID_ORIGIN);
  });

  it("does not check GET requests", async () => {
    const { client, token } = await signedIn("https://evil.test");
    const response = await client.get("/api/auth/get-session", { origin: "https://evil.test" });
    expect(response.body.session.token).toBe(token);
  });

  it("accepts the base URL's own origin and the TRUSTED_ORIGINS entries, wildcards included", async () => {
    const accepted = [server.baseUrl, "https://app.example.com", "https://a.b.example.com", "https://partner.example.org"];
    for (const origin of accepted) {
      const { client } = await signedIn(origin);
      const response = await client.post("/api/auth/update-user", { name: `From ${origin}` });
      expect(response.status, origin).toBe(200);
    }
  });

  it("refuses look-alikes of trusted origins", async () => {
    const refused = [
      "https://example.com.evil.com",
      "https://example.com",
      "https://evilexample.com",
      "http://app.example.com",
      "https://app.example.com:8443",
      "https://partner.example.org.evil.com",
      "https://app.example.com.evil.com",
      server.baseUrl.replace("localhost", "127.0.0.1"),
    ];
    for (const origin of refused) {
      const { client } = await signedIn(origin);
      const response = await client.post("/api/auth/update-user", { name: "Look-alike" });
      expect(response.status, origin).toBe(403);
      expect(response.body, origin).toEqual(INVALID_ORIGIN);
    }
  });
});

describe("callbackURL", () => {
  const signIn = (callbackURL: unknown) => new ApiClient(server.baseUrl).post("/api/auth/sign-in/email", { email, password: PASSWORD, callbackURL });

  it("accepts relative paths and URLs on trusted origins", async () => {
    const accepted = ["/x", "/account?tab=sessions#top", `${server.baseUrl}/done`, "https://app.example.com/welcome", "https://partner.example.org/cb"];
    for (const callbackURL of accepted) {
      const response = await signIn(callbackURL);
      expect(response.status, callbackURL).toBe(200);
      expect(response.body.url, callbackURL).toBe(callbackURL);
    }
  });

  it("refuses other sites with 403 INVALID_CALLBACKURL and starts no session", async () => {
    const refused = [
      "https://evil.test/steal",
      "//evil.test",
      "//evil.test/path",
      "/\\evil.test",
      "\\\\evil.test",
      "/\t/evil.test",
      "https://example.com.evil.com/",
      "http://app.example.com/",
      "/%2F%2Fevil.test",
      "/%5Cevil.test",
      "javascript:alert(document.cookie)",
      "data:text/html,<script>alert(1)</script>",
      "evil.test",
    ];
    const sessions = () => count(server.database, "session", `"userId" IN (SELECT "id" FROM "user" WHERE "email" = ?)`, [email]);
    for (const callbackURL of refused) {
      const before = await sessions();
      const response = await signIn(callbackURL);
      expect(response.status, callbackURL).toBe(403);
      expect(response.body, callbackURL).toEqual(INVALID_CALLBACK);
      expect(response.setCookies, callbackURL).toEqual([]);
      expect(await sessions(), callbackURL).toBe(before);
    }
  });

  it("refuses a non-string callbackURL with 400", async () => {
    const response = await signIn(42);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("VALIDATION_ERROR");
  });

  it("is checked on sign-up as well, before anything is created", async () => {
    const address = uniqueEmail("cb");
    const response = await new ApiClient(server.baseUrl).post("/api/auth/sign-up/email", {
      name: "Callback",
      email: address,
      password: PASSWORD,
      callbackURL: "https://evil.test/welcome",
    });
    expect(response.status).toBe(403);
    expect(response.body).toEqual(INVALID_CALLBACK);
    expect(await count(server.database, "user", `"email" = ?`, [address])).toBe(0);

    const relative = await new ApiClient(server.baseUrl).post("/api/auth/sign-up/email", {
      name: "Callback",
      email: address,
      password: PASSWORD,
      callbackURL: "/welcome",
    });
    expect(relative.status).toBe(200);
  });
});
