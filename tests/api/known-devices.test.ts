// New devices (ADR 039): a browser is known to an account by a signed, HttpOnly device cookie that lives a year
// and survives sign-out; the first-factor door marks each sign-in new or known by the knownDevice rows. What
// the browser sees is only the cookie; the mark is read from the rows (the security-event log will show it).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, signUp } from "../support/client";
import { setCookie } from "../support/cookies";
import { sharedServer, type TestServer } from "../support/server";
import { count } from "../support/sql";
import { enableTwoFactor, freshCode } from "../support/two-factor";

const DEVICE = "latchkey.device";
let server: TestServer;

beforeAll(async () => {
  server = await sharedServer({ env: { AUTH_EMAIL_VERIFICATION: "off" }, mail: true });
});
afterAll(async () => {
  await server?.stop();
});

const browser = () => new ApiClient(server.baseUrl);
const devicesOf = (userId: string) => count(server.database, "knownDevice", `"userId" = ?`, [userId]);
const signIn = (client: ApiClient, email: string) => client.post("/api/auth/sign-in/email", { email, password: PASSWORD });

describe("known devices", () => {
  it("the browser that signed up is the account's first device; signing in there again is not new, and the cookie survives sign-out", async () => {
    const laptop = browser();
    const { email, response, user } = await signUp(laptop);
    const cookie = setCookie(response, DEVICE);
    expect(cookie?.attributes.httponly).toBe(true);
    expect(Number(cookie?.attributes["max-age"])).toBe(365 * 24 * 60 * 60);
    expect(await devicesOf(user.id)).toBe(1);

    const signOut = await laptop.post("/api/auth/sign-out");
    expect(setCookie(signOut, DEVICE)).toBeUndefined();
    expect(laptop.cookies.has(DEVICE)).toBe(true);
    expect((await signIn(laptop, email)).status).toBe(200);
    expect(await devicesOf(user.id)).toBe(1);
  });

  it("another browser is a new device; so is one whose cookie was cleared or forged", async () => {
    const { email, user } = await signUp(browser());
    const phone = browser();
    expect((await signIn(phone, email)).status).toBe(200);
    expect(await devicesOf(user.id)).toBe(2);
    expect((await signIn(phone, email)).status).toBe(200);
    expect(await devicesOf(user.id)).toBe(2);

    phone.cookies.delete(DEVICE);
    expect((await signIn(phone, email)).status).toBe(200);
    expect(await devicesOf(user.id)).toBe(3);

    const forged = browser();
    forged.cookies.set(DEVICE, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.forged-signature");
    expect((await signIn(forged, email)).status).toBe(200);
    expect(await devicesOf(user.id)).toBe(4);
  });

  it("one browser is one device per account: two accounts signed in from it are each marked once", async () => {
    const shared = browser();
    const first = await signUp(browser());
    const second = await signUp(browser());
    for (const account of [first, second, first, second]) expect((await signIn(shared, account.email)).status).toBe(200);
    expect(await devicesOf(first.user.id)).toBe(2);
    expect(await devicesOf(second.user.id)).toBe(2);
  });

  it("a failed sign-in marks nothing", async () => {
    const { email, user } = await signUp(browser());
    const stranger = browser();
    expect((await stranger.post("/api/auth/sign-in/email", { email, password: "not the password" })).status).toBe(401);
    expect(await devicesOf(user.id)).toBe(1);
  });

  it("with two-factor on, the device is marked once the second step succeeds, not at the first", async () => {
    const owner = browser();
    const { email, user } = await signUp(owner);
    const { totpURI, used } = await enableTwoFactor(owner);
    const laptop = browser();
    expect((await signIn(laptop, email)).body.twoFactorRedirect).toBe(true);
    expect(await devicesOf(user.id)).toBe(1);
    expect((await laptop.post("/api/auth/two-factor/verify-totp", { code: await freshCode(totpURI, used) })).status).toBe(200);
    expect(await devicesOf(user.id)).toBe(2);
  });
});
