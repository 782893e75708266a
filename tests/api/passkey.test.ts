// Passkeys (issue 10): every /passkey route and error, with answers from a software authenticator holding a real
// key (tests/support/webauthn.ts), so the server's WebAuthn verification runs for real.
import { describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, signUp, uniqueEmail } from "../support/client";
import { COOKIE } from "../support/cookies";
import type { Mailbox } from "../support/mailbox";
import path from "node:path";
import { startServer, startServerExpectingFailure, TEST_SECRET, useServerWithMailbox, type TestServer } from "../support/server";
import { count, query } from "../support/sql";
import { SoftAuthenticator } from "../support/webauthn";

const P = "/api/auth/passkey";
const CHALLENGE_COOKIE = "latchkey.passkey_challenge";

let server: TestServer;
let mailbox: Mailbox;
useServerWithMailbox({ AUTH_EMAIL_VERIFICATION: "off" }, (running) => ({ server, mailbox } = running));

const rpId = () => new URL(server.baseUrl).hostname;

async function signedIn() {
  const client = new ApiClient(server.baseUrl);
  const created = await signUp(client);
  return { ...created, client, authenticator: new SoftAuthenticator(server.origin) };
}

async function registerPasskey(client: ApiClient, authenticator: SoftAuthenticator, name?: string) {
  const options = await client.get(`${P}/generate-register-options`);
  expect(options.status, options.text).toBe(200);
  const { response, credential } = authenticator.register(options.body);
  const verified = await client.post(`${P}/verify-registration`, { response, ...(name ? { name } : {}) });
  expect(verified.status, verified.text).toBe(200);
  return { passkey: verified.body, credential, response };
}

async function authenticateOptions(client: ApiClient, body: unknown = {}) {
  const options = await client.post(`${P}/generate-authenticate-options`, body);
  expect(options.status, options.text).toBe(200);
  return options.body;
}

/** Makes the passkey ceremony these options started look five minutes old. */
async function expireChallenge(options: { challenge: string }) {
  await query(server.database, `UPDATE "verification" SET "expiresAt" = "createdAt" WHERE "identifier" LIKE 'passkey-challenge:%' AND "value" LIKE ?`, [
    `%${options.challenge}%`,
  ]);
}

const expectError = (response: { status: number; body: any }, status: number, code: string) => {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.code).toBe(code);
  expect(typeof response.body.message).toBe("string");
};

describe("GET /passkey/generate-register-options", () => {
  it("needs a session", async () => {
    expectError(await new ApiClient(server.baseUrl).get(`${P}/generate-register-options`), 401, "UNAUTHORIZED");
  });

  it("answers creation options: configured relying party, random 1–64 byte user id, resident key and UV preferred", async () => {
    const { client, user, email } = await signedIn();
    const response = await client.get(`${P}/generate-register-options`);
    expect(response.status).toBe(200);
    const options = response.body;
    expect(options.rp).toEqual({ id: rpId(), name: "Latchkey" });
    const userId = Buffer.from(options.user.id, "base64url");
    expect(userId.length).toBeGreaterThanOrEqual(1);
    expect(userId.length).toBeLessThanOrEqual(64);
    expect(options.user.id).not.toContain(user.id);
    expect(userId.toString("utf8")).not.toContain(email);
    expect(options.user.name).toBe(email);
    expect(options.authenticatorSelection).toMatchObject({ residentKey: "preferred", userVerification: "preferred" });
    expect(options.attestation).toBe("none");
    expect(options.excludeCredentials).toEqual([]);
    expect(Buffer.from(options.challenge, "base64url").length).toBeGreaterThanOrEqual(16);
    // A second request: a new challenge and a new user handle.
    const again = (await client.get(`${P}/generate-register-options`)).body;
    expect(again.challenge).not.toBe(options.challenge);
    expect(again.user.id).not.toBe(options.user.id);
    const cookie = response.setCookies.find((c) => c.startsWith(`${CHALLENGE_COOKIE}=`))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Max-Age=300/i);
  });

  it("excludes the user's own credentials, and passes authenticatorAttachment on", async () => {
    const { client, authenticator } = await signedIn();
    const { passkey } = await registerPasskey(client, authenticator);
    const options = (await client.get(`${P}/generate-register-options?authenticatorAttachment=platform`)).body;
    expect(options.excludeCredentials).toEqual([{ id: passkey.credentialID, type: "public-key", transports: ["internal"] }]);
    expect(options.authenticatorSelection.authenticatorAttachment).toBe("platform");
    expectError(await client.get(`${P}/generate-register-options?authenticatorAttachment=phone`), 400, "VALIDATION_ERROR");
  });
});

describe("POST /passkey/verify-registration", () => {
  it("stores the passkey and answers it; the list shows it", async () => {
    const { client, authenticator, user } = await signedIn();
    const { passkey, response } = await registerPasskey(client, authenticator, "  Laptop  ");
    expect(passkey).toMatchObject({ name: "Laptop", userId: user.id, credentialID: response.id, counter: 0, deviceType: "singleDevice", backedUp: false, transports: "internal" });
    expect(typeof passkey.id).toBe("string");
    expect(typeof passkey.publicKey).toBe("string");
    expect(new Date(passkey.createdAt).getTime()).not.toBeNaN();
    const list = await client.get(`${P}/list-user-passkeys`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([passkey]);
  });

  it("takes the name asked for with the options when the verify call gives none", async () => {
    const { client, authenticator } = await signedIn();
    const options = (await client.get(`${P}/generate-register-options?name=${encodeURIComponent("Security key")}`)).body;
    const verified = await client.post(`${P}/verify-registration`, { response: authenticator.register(options).response });
    expect(verified.body.name).toBe("Security key");
  });

  it("names a passkey given no name after the device that created it, from the User-Agent", async () => {
    const { client, authenticator } = await signedIn();
    const chrome = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
    const register = async (body: Record<string, unknown>, userAgent: string) => {
      const options = (await client.get(`${P}/generate-register-options`)).body;
      const verified = await client.post(`${P}/verify-registration`, { response: authenticator.register(options).response, ...body }, { "user-agent": userAgent });
      expect(verified.status, verified.text).toBe(200);
      return verified.body.name;
    };
    expect(await register({}, chrome)).toBe("Chrome on Linux");
    expect(await register({ name: "   " }, "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1")).toBe("Safari on iOS");
    // A name given is kept; a User-Agent we cannot read leaves the passkey unnamed, as before.
    expect(await register({ name: "Work laptop" }, chrome)).toBe("Work laptop");
    expect(await register({}, "SomethingElse/1.0")).toBeNull();
  });

  it("stores one passkey when the same answer arrives twice at once", async () => {
    const { client, authenticator, user } = await signedIn();
    const options = (await client.get(`${P}/generate-register-options`)).body;
    const { response } = authenticator.register(options);
    const results = await Promise.all([0, 1].map(() => client.post(`${P}/verify-registration`, { response })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(await count(server.database, "passkey", `"userId" = ?`, [user.id])).toBe(1);
  });

  it("records a synced passkey as multiDevice and backed up", async () => {
    const { client } = await signedIn();
    const { passkey } = await registerPasskey(client, new SoftAuthenticator(server.origin, undefined, true));
    expect(passkey).toMatchObject({ deviceType: "multiDevice", backedUp: true });
  });

  it("answers 400 'previously registered' for an authenticator already registered, by this user or another", async () => {
    const alice = await signedIn();
    const { credential } = await registerPasskey(alice.client, alice.authenticator);
    const options = (await alice.client.get(`${P}/generate-register-options`)).body;
    const again = alice.authenticator.register(options, { credential }).response;
    const response = await alice.client.post(`${P}/verify-registration`, { response: again });
    expectError(response, 400, "PREVIOUSLY_REGISTERED");
    expect(response.body.message).toBe("previously registered");

    const bob = await signedIn();
    const bobOptions = (await bob.client.get(`${P}/generate-register-options`)).body;
    expectError(await bob.client.post(`${P}/verify-registration`, { response: alice.authenticator.register(bobOptions, { credential }).response }), 400, "PREVIOUSLY_REGISTERED");
    expect(await count(server.database, "passkey", `"credentialID" = ?`, [again.id])).toBe(1);
  });

  it("refuses a wrong challenge, a replayed or expired one, and one from another browser", async () => {
    const { client, authenticator, email } = await signedIn();
    let options = (await client.get(`${P}/generate-register-options`)).body;
    const wrong = authenticator.register(options, { challenge: Buffer.from("not the challenge").toString("base64url") }).response;
    expectError(await client.post(`${P}/verify-registration`, { response: wrong }), 400, "REGISTRATION_CANCELLED");
    // That challenge is used up now, even by the right answer.
    expectError(await client.post(`${P}/verify-registration`, { response: authenticator.register(options).response }), 400, "CHALLENGE_NOT_FOUND");

    options = (await client.get(`${P}/generate-register-options`)).body;
    const good = authenticator.register(options).response;
    const elsewhere = new ApiClient(server.baseUrl);
    expect((await elsewhere.post("/api/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
    expectError(await elsewhere.post(`${P}/verify-registration`, { response: good }), 400, "CHALLENGE_NOT_FOUND");
    expect((await client.post(`${P}/verify-registration`, { response: good })).status).toBe(200);
    expectError(await client.post(`${P}/verify-registration`, { response: good }), 400, "CHALLENGE_NOT_FOUND");

    options = (await client.get(`${P}/generate-register-options`)).body;
    await expireChallenge(options);
    expectError(await client.post(`${P}/verify-registration`, { response: authenticator.register(options).response }), 400, "CHALLENGE_NOT_FOUND");
  });

  it("refuses an answer for another origin or another RP ID", async () => {
    const { client, authenticator } = await signedIn();
    let options = (await client.get(`${P}/generate-register-options`)).body;
    expectError(await client.post(`${P}/verify-registration`, { response: authenticator.register(options, { origin: "https://evil.example" }).response }), 400, "REGISTRATION_CANCELLED");
    options = (await client.get(`${P}/generate-register-options`)).body;
    expectError(await client.post(`${P}/verify-registration`, { response: authenticator.register(options, { rpId: "evil.example" }).response }), 400, "REGISTRATION_CANCELLED");
    options = (await client.get(`${P}/generate-register-options`)).body;
    expectError(await client.post(`${P}/verify-registration`, { response: authenticator.register(options, { type: "webauthn.get" }).response }), 400, "REGISTRATION_CANCELLED");
    expect((await client.get(`${P}/list-user-passkeys`)).body).toEqual([]);
  });

  it("refuses another user's challenge (its cookie carried into this user's request)", async () => {
    const alice = await signedIn();
    const bob = await signedIn();
    const options = (await alice.client.get(`${P}/generate-register-options`)).body;
    bob.client.cookies.set(CHALLENGE_COOKIE, alice.client.cookies.get(CHALLENGE_COOKIE)!);
    expectError(await bob.client.post(`${P}/verify-registration`, { response: bob.authenticator.register(options).response }), 400, "CHALLENGE_NOT_FOUND");
    expect(await count(server.database, "passkey", `"userId" = ?`, [bob.user.id])).toBe(0);
  });

  it("answers 4xx, never 500, for bodies of the wrong shape", async () => {
    const { client, authenticator } = await signedIn();
    const options = (await client.get(`${P}/generate-register-options`)).body;
    const good = authenticator.register(options).response;
    for (const body of [{}, { response: null }, { response: { id: 1 } }, { response: { ...good, type: "password" } }, { response: { ...good, response: { clientDataJSON: "%%%" } } }, { response: good, name: 42 }]) {
      expectError(await client.post(`${P}/verify-registration`, body), 400, "VALIDATION_ERROR");
    }
    expectError(await client.request("POST", `${P}/verify-registration`, { rawBody: "{not json", headers: { "content-type": "application/json" } }), 400, "INVALID_JSON");
    // Well-formed base64url that is not an attestation object.
    const garbage = { ...good, response: { ...good.response, attestationObject: Buffer.from("garbage").toString("base64url") } };
    expectError(await client.post(`${P}/verify-registration`, { response: garbage }), 400, "REGISTRATION_CANCELLED");
    expectError(await new ApiClient(server.baseUrl).post(`${P}/verify-registration`, { response: good }), 401, "UNAUTHORIZED");
  });
});

describe("generate-authenticate-options", () => {
  it("answers discoverable-credential options, the same shape with or without an e-mail, by POST and GET", async () => {
    const { client, authenticator, email } = await signedIn();
    await registerPasskey(client, authenticator);
    const anonymous = new ApiClient(server.baseUrl);
    const shapes = [];
    for (const body of [{}, { email }, { email: uniqueEmail("nobody") }]) {
      const options = await authenticateOptions(anonymous, body);
      expect(options).toMatchObject({ rpId: rpId(), allowCredentials: [], userVerification: "preferred" });
      shapes.push(JSON.stringify(Object.keys(options).sort()));
    }
    const viaGet = await anonymous.get(`${P}/generate-authenticate-options`);
    expect(viaGet.status).toBe(200);
    shapes.push(JSON.stringify(Object.keys(viaGet.body).sort()));
    expect(new Set(shapes).size).toBe(1);
    expectError(await anonymous.post(`${P}/generate-authenticate-options`, { email: 42 }), 400, "VALIDATION_ERROR");
  });
});

describe("POST /passkey/verify-authentication", () => {
  it("signs in: {session, user}, the session cookie, and the counter stored", async () => {
    const { client, authenticator, user } = await signedIn();
    const { passkey } = await registerPasskey(client, authenticator);
    const browser = new ApiClient(server.baseUrl);
    const response = await browser.post(`${P}/verify-authentication`, { response: authenticator.authenticate(await authenticateOptions(browser)) });
    expect(response.status, response.text).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(["session", "user"]);
    expect(response.body.user).toMatchObject({ id: user.id, email: user.email });
    expect(response.body.session.userId).toBe(user.id);
    expect(browser.cookies.has(COOKIE.sessionToken)).toBe(true);
    expect((await browser.get("/api/auth/get-session")).body.user.id).toBe(user.id);
    const [row] = await query<{ counter: number | string }>(server.database, `SELECT "counter" FROM "passkey" WHERE "id" = ?`, [passkey.id]);
    expect(Number(row.counter)).toBe(1);
  });

  it("refuses a counter that does not move forward (a cloned authenticator), and keeps the stored one", async () => {
    const { client, authenticator } = await signedIn();
    const { passkey, credential } = await registerPasskey(client, authenticator);
    const browser = new ApiClient(server.baseUrl);
    expect((await browser.post(`${P}/verify-authentication`, { response: authenticator.authenticate(await authenticateOptions(browser), credential, { counter: 5 }) })).status).toBe(200);
    for (const counter of [5, 3]) {
      const response = await browser.post(`${P}/verify-authentication`, { response: authenticator.authenticate(await authenticateOptions(browser), credential, { counter }) });
      expectError(response, 400, "AUTH_CANCELLED");
      expect(response.body.message).toBe("auth cancelled");
    }
    const [row] = await query<{ counter: number | string }>(server.database, `SELECT "counter" FROM "passkey" WHERE "id" = ?`, [passkey.id]);
    expect(Number(row.counter)).toBe(5);
  });

  it("of two sign-ins racing with one challenge, exactly one gets a session", async () => {
    const { client, authenticator } = await signedIn();
    await registerPasskey(client, authenticator);
    const browser = new ApiClient(server.baseUrl);
    const response = authenticator.authenticate(await authenticateOptions(browser));
    const results = await Promise.all([0, 1].map(() => browser.post(`${P}/verify-authentication`, { response })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(results.filter((r) => r.status === 200)[0].body.session).toBeTruthy();
  });

  it("signs in repeatedly with a synced passkey whose counter stays 0", async () => {
    const { client } = await signedIn();
    const synced = new SoftAuthenticator(server.origin, undefined, true);
    await registerPasskey(client, synced);
    const browser = new ApiClient(server.baseUrl);
    for (let i = 0; i < 2; i++) {
      expect((await browser.post(`${P}/verify-authentication`, { response: synced.authenticate(await authenticateOptions(browser)) })).status).toBe(200);
    }
  });

  it("refuses a wrong, replayed, expired or foreign challenge, another origin, another RP ID, a bad signature", async () => {
    const { client, authenticator } = await signedIn();
    await registerPasskey(client, authenticator);
    const browser = new ApiClient(server.baseUrl);
    const attempt = async (bend: Parameters<SoftAuthenticator["authenticate"]>[2]) =>
      browser.post(`${P}/verify-authentication`, { response: authenticator.authenticate(await authenticateOptions(browser), undefined, bend) });
    expectError(await attempt({ challenge: Buffer.from("another challenge").toString("base64url") }), 400, "AUTH_CANCELLED");
    expectError(await attempt({ origin: "https://evil.example" }), 400, "AUTH_CANCELLED");
    expectError(await attempt({ rpId: "evil.example" }), 400, "AUTH_CANCELLED");
    expectError(await attempt({ type: "webauthn.create" }), 400, "AUTH_CANCELLED");
    expect(browser.cookies.has(COOKIE.sessionToken)).toBe(false);

    const options = await authenticateOptions(browser);
    const good = authenticator.authenticate(options);
    const tampered = { ...good, response: { ...good.response, signature: authenticator.authenticate(options).response.signature.replace(/^../, "MA") } };
    expectError(await browser.post(`${P}/verify-authentication`, { response: tampered }), 400, "AUTH_CANCELLED");

    // Replayed: the first use wins, the second finds no challenge.
    const fresh = authenticator.authenticate(await authenticateOptions(browser));
    expect((await browser.post(`${P}/verify-authentication`, { response: fresh })).status).toBe(200);
    expectError(await browser.post(`${P}/verify-authentication`, { response: fresh }), 400, "CHALLENGE_NOT_FOUND");

    // Another browser (no challenge cookie) cannot answer this browser's challenge.
    const next = authenticator.authenticate(await authenticateOptions(browser));
    expectError(await new ApiClient(server.baseUrl).post(`${P}/verify-authentication`, { response: next }), 400, "CHALLENGE_NOT_FOUND");
    // A forged cookie is no better.
    const forger = new ApiClient(server.baseUrl);
    forger.cookies.set(CHALLENGE_COOKIE, "handle.forged-signature");
    expectError(await forger.post(`${P}/verify-authentication`, { response: next }), 400, "CHALLENGE_NOT_FOUND");

    const expiring = await authenticateOptions(browser);
    await expireChallenge(expiring);
    expectError(await browser.post(`${P}/verify-authentication`, { response: authenticator.authenticate(expiring) }), 400, "CHALLENGE_NOT_FOUND");
  });

  it("refuses an unknown credential, and a registration challenge used to sign in", async () => {
    const { client, authenticator } = await signedIn();
    await registerPasskey(client, authenticator);
    const stranger = new SoftAuthenticator(server.origin);
    const browser = new ApiClient(server.baseUrl);
    const options = await authenticateOptions(browser);
    stranger.register({ challenge: options.challenge, user: { id: "AAAA" } });
    expectError(await browser.post(`${P}/verify-authentication`, { response: stranger.authenticate(options) }), 400, "AUTH_CANCELLED");

    const registerOptions = (await client.get(`${P}/generate-register-options`)).body;
    expectError(await client.post(`${P}/verify-authentication`, { response: authenticator.authenticate(registerOptions) }), 400, "CHALLENGE_NOT_FOUND");
  });

  it("answers 4xx, never 500, for bodies of the wrong shape", async () => {
    const browser = new ApiClient(server.baseUrl);
    for (const body of [{}, { response: "x" }, { response: { id: "abc", rawId: "abc", type: "public-key", response: {} } }]) {
      await authenticateOptions(browser);
      expectError(await browser.post(`${P}/verify-authentication`, body), 400, "VALIDATION_ERROR");
    }
    const options = await authenticateOptions(browser);
    const junk = { id: "abc", rawId: "abc", type: "public-key", response: { clientDataJSON: "abc", authenticatorData: "abc", signature: "abc" }, clientExtensionResults: {} };
    void options;
    expectError(await browser.post(`${P}/verify-authentication`, { response: junk }), 400, "AUTH_CANCELLED");
  });
});

describe("list, update and delete", () => {
  it("each user sees and changes only their own passkeys", async () => {
    const alice = await signedIn();
    const bob = await signedIn();
    const { passkey } = await registerPasskey(alice.client, alice.authenticator, "Alice's key");
    await registerPasskey(bob.client, bob.authenticator, "Bob's key");
    expect((await bob.client.get(`${P}/list-user-passkeys`)).body.map((p: any) => p.name)).toEqual(["Bob's key"]);

    expectError(await bob.client.post(`${P}/update-passkey`, { id: passkey.id, name: "mine now" }), 404, "PASSKEY_NOT_FOUND");
    expectError(await bob.client.post(`${P}/delete-passkey`, { id: passkey.id }), 404, "PASSKEY_NOT_FOUND");
    expect((await alice.client.get(`${P}/list-user-passkeys`)).body).toEqual([passkey]);

    const renamed = await alice.client.post(`${P}/update-passkey`, { id: passkey.id, name: "Work laptop" });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ passkey: { ...passkey, name: "Work laptop" } });
    const deleted = await alice.client.post(`${P}/delete-passkey`, { id: passkey.id });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ status: true });
    expect((await alice.client.get(`${P}/list-user-passkeys`)).body).toEqual([]);
    expectError(await alice.client.post(`${P}/delete-passkey`, { id: passkey.id }), 404, "PASSKEY_NOT_FOUND");

    // A deleted passkey no longer signs anyone in.
    const browser = new ApiClient(server.baseUrl);
    expectError(await browser.post(`${P}/verify-authentication`, { response: alice.authenticator.authenticate(await authenticateOptions(browser)) }), 400, "AUTH_CANCELLED");
  });

  it("needs a session and well-formed bodies", async () => {
    const anonymous = new ApiClient(server.baseUrl);
    expectError(await anonymous.get(`${P}/list-user-passkeys`), 401, "UNAUTHORIZED");
    expectError(await anonymous.post(`${P}/update-passkey`, { id: "x", name: "y" }), 401, "UNAUTHORIZED");
    expectError(await anonymous.post(`${P}/delete-passkey`, { id: "x" }), 401, "UNAUTHORIZED");
    const { client } = await signedIn();
    for (const body of [{}, { id: "x" }, { id: 1, name: "y" }, { id: "x", name: "y".repeat(101) }]) {
      expectError(await client.post(`${P}/update-passkey`, body), 400, "VALIDATION_ERROR");
    }
    expectError(await client.post(`${P}/delete-passkey`, {}), 400, "VALIDATION_ERROR");
    expectError(await client.get(`${P}/delete-passkey`), 405, "METHOD_NOT_ALLOWED");
  });

  it("refuses a cross-site POST (origin check)", async () => {
    const { client } = await signedIn();
    expectError(await client.post(`${P}/delete-passkey`, { id: "x" }, { origin: "https://evil.example" }), 403, "INVALID_ORIGIN");
  });
});

describe("sign-up with a passkey alone", () => {
  const CODE = /sign-up code/i;
  const codeOf = (text: string) => /Your code: (\d{6})/.exec(text)![1];

  async function requestCode(browser: ApiClient, email: string, name = "Passkey Person") {
    const response = await browser.post(`${P}/sign-up/send-code`, { name, email });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ status: true });
    return codeOf((await mailbox.waitFor(email, CODE)).text);
  }

  it("mails a code, then creates a verified account with no password whose passkey signs in", async () => {
    const email = uniqueEmail("passkey-only");
    const browser = new ApiClient(server.baseUrl);
    const code = await requestCode(browser, email);
    const options = await browser.post(`${P}/sign-up/generate-register-options`, { code: ` ${code} ` });
    expect(options.status, options.text).toBe(200);
    expect(options.body.user.name).toBe(email);
    expect(options.body.user.displayName).toBe("Passkey Person");
    expect(options.body.excludeCredentials).toEqual([]);
    const authenticator = new SoftAuthenticator(server.origin);
    // Read as written down (ADR 037): spaces around it above, a dash and a space inside it here, for the same code.
    const copied = `${code.slice(0, 3)}- ${code.slice(3)}`;
    const created = await browser.post(`${P}/sign-up/verify-registration`, { code: copied, response: authenticator.register(options.body).response, name: "Phone" });
    expect(created.status, created.text).toBe(200);
    expect(created.body.user).toMatchObject({ email, name: "Passkey Person", emailVerified: true });
    expect((await browser.get("/api/auth/get-session")).body.user.email).toBe(email);
    expect(await count(server.database, "account", `"userId" = ?`, [created.body.user.id])).toBe(0);
    expect((await browser.get(`${P}/list-user-passkeys`)).body.map((p: any) => p.name)).toEqual(["Phone"]);

    // The code is used up.
    expectError(await browser.post(`${P}/sign-up/generate-register-options`, { code }), 400, "INVALID_CODE");

    const later = new ApiClient(server.baseUrl);
    expect((await later.post(`${P}/verify-authentication`, { response: authenticator.authenticate(await authenticateOptions(later)) })).status).toBe(200);
    expect((await later.post("/api/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(401);

    // No password, but the reset flow by e-mail still lets them in with one.
    expect((await later.post("/api/auth/request-password-reset", { email })).status).toBe(200);
    const link = (await mailbox.waitFor(email, /reset/i)).links[0];
    const token = new URL(link).pathname.split("/").pop()!;
    expect((await later.post("/api/auth/reset-password", { token, newPassword: "a brand new password" })).status).toBe(200);
    expect((await new ApiClient(server.baseUrl).post("/api/auth/sign-in/email", { email, password: "a brand new password" })).status).toBe(200);
  });

  it("a wrong code, or the right code from another browser, gets nothing; a cancelled ceremony can be retried", async () => {
    const email = uniqueEmail("passkey-retry");
    const browser = new ApiClient(server.baseUrl);
    const code = await requestCode(browser, email);
    expectError(await browser.post(`${P}/sign-up/generate-register-options`, { code: code === "000000" ? "111111" : "000000" }), 400, "INVALID_CODE");
    expectError(await new ApiClient(server.baseUrl).post(`${P}/sign-up/generate-register-options`, { code }), 400, "INVALID_CODE");
    expectError(await browser.post(`${P}/sign-up/generate-register-options`, { code: "short" }), 400, "VALIDATION_ERROR");

    const authenticator = new SoftAuthenticator(server.origin);
    let options = (await browser.post(`${P}/sign-up/generate-register-options`, { code })).body;
    expectError(await browser.post(`${P}/sign-up/verify-registration`, { code, response: authenticator.register(options, { origin: "https://evil.example" }).response }), 400, "REGISTRATION_CANCELLED");
    expect(await count(server.database, "user", `"email" = ?`, [email])).toBe(0);
    options = (await browser.post(`${P}/sign-up/generate-register-options`, { code })).body;
    // The challenge is tied to its code: another code (or none) cannot use it.
    expectError(await browser.post(`${P}/sign-up/verify-registration`, { code: code === "222222" ? "333333" : "222222", response: authenticator.register(options).response }), 400, "CHALLENGE_NOT_FOUND");
    options = (await browser.post(`${P}/sign-up/generate-register-options`, { code })).body;
    const firefox = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
    expect((await browser.post(`${P}/sign-up/verify-registration`, { code, response: authenticator.register(options).response }, { "user-agent": firefox })).status).toBe(200);
    expect(await count(server.database, "user", `"email" = ?`, [email])).toBe(1);
    // No name given: the passkey is named after the device that created it.
    expect((await browser.get(`${P}/list-user-passkeys`)).body.map((p: any) => p.name)).toEqual(["Firefox on Windows"]);
  });

  it("of two sign-ups racing with one code, exactly one creates the account", async () => {
    const email = uniqueEmail("passkey-race");
    const browser = new ApiClient(server.baseUrl);
    const code = await requestCode(browser, email);
    const authenticator = new SoftAuthenticator(server.origin);
    const options = (await browser.post(`${P}/sign-up/generate-register-options`, { code })).body;
    const response = authenticator.register(options).response;
    const results = await Promise.all([0, 1].map(() => browser.post(`${P}/sign-up/verify-registration`, { code, response })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(await count(server.database, "user", `"email" = ?`, [email])).toBe(1);
    expect(await count(server.database, "passkey", `"credentialID" = ?`, [response.id])).toBe(1);
  });

  it("answers the same for an address that has an account, which gets a 'you already have one' mail and no code", async () => {
    const { email } = await signedIn();
    const browser = new ApiClient(server.baseUrl);
    const response = await browser.post(`${P}/sign-up/send-code`, { name: "Someone", email });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: true });
    const mail = await mailbox.waitFor(email, /already have an account/i);
    expect(mail.text).not.toMatch(/Your code/);
    expectError(await browser.post(`${P}/sign-up/send-code`, { name: "", email: "not-an-email" }), 400, "VALIDATION_ERROR");
  });
});

describe("GET /continue (where a page's script goes after a passkey sign-in)", () => {
  it.each([
    ["/account/passkeys", "/account/passkeys"],
    ["", "/account"],
    ["https://evil.example/steal", "/account"],
    ["//evil.example", "/account"],
    ["/\\evil.example", "/account"],
  ])("?to=%j → %s on this site", async (to, path) => {
    const response = await new ApiClient(server.baseUrl).get(`/continue${to ? `?to=${encodeURIComponent(to)}` : ""}`);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${server.baseUrl}${path}`);
  });
});

describe("relying-party configuration", () => {
  const DATABASE_URL = `file:${path.join(import.meta.dirname, "..", ".tmp", "config-test-never-created.db")}`;
  const BASE = { AUTH_SECRET: TEST_SECRET, DATABASE_URL, BASE_URL: "https://login.example.com", AUTH_RATE_LIMIT: "off" };

  it.each([
    ["a host BASE_URL does not belong to", { AUTH_PASSKEY_RP_ID: "other.example" }],
    ["a name longer than 64 characters", { AUTH_PASSKEY_RP_NAME: "x".repeat(65) }],
  ])("refuses to start with %s", async (_label, env) => {
    const result = await startServerExpectingFailure({ ...BASE, ...env });
    expect(result.code, result.output).not.toBe(0);
    expect(result.code).not.toBeNull();
    expect(result.output).toMatch(/AUTH_PASSKEY_RP_(ID|NAME)/);
  });

  it("with required e-mail verification, a passkey does not sign in an unverified address", async () => {
    const strict = await startServer({ env: { AUTH_EMAIL_VERIFICATION: "required", SMTP_URL: mailbox.url }, database: server.database });
    try {
      const { client, authenticator, user } = await signedIn(); // on the lenient server
      await registerPasskey(client, authenticator);
      const browser = new ApiClient(strict.baseUrl);
      await query(server.database, `UPDATE "user" SET "emailVerified" = ? WHERE "id" = ?`, [server.database.kind === "sqlite" ? 0 : false, user.id]);
      let options = (await browser.post(`${P}/generate-authenticate-options`, {})).body;
      const elsewhere = { origin: strict.origin }; // the same site on another port
      expectError(await browser.post(`${P}/verify-authentication`, { response: authenticator.authenticate(options, undefined, elsewhere) }), 403, "EMAIL_NOT_VERIFIED");
      await query(server.database, `UPDATE "user" SET "emailVerified" = ? WHERE "id" = ?`, [server.database.kind === "sqlite" ? 1 : true, user.id]);
      options = (await browser.post(`${P}/generate-authenticate-options`, {})).body;
      expect((await browser.post(`${P}/verify-authentication`, { response: authenticator.authenticate(options, undefined, elsewhere) })).status).toBe(200);
    } finally {
      await strict.stop();
    }
  });

  it("uses the configured RP ID and name", async () => {
    const other = await startServer({ env: { AUTH_PASSKEY_RP_ID: "localhost", AUTH_PASSKEY_RP_NAME: "Acme Login" }, database: server.database });
    try {
      const options = await new ApiClient(other.baseUrl).post(`${P}/generate-authenticate-options`, {});
      expect(options.body.rpId).toBe("localhost");
      const client = new ApiClient(other.baseUrl);
      await signUp(client);
      expect((await client.get(`${P}/generate-register-options`)).body.rp).toEqual({ id: "localhost", name: "Acme Login" });
    } finally {
      await other.stop();
    }
  });
});
