// A credential-stuffing wave, simulated (issue 39 §6's test; docs/decisions/061-owner-first-under-a-stuffing-wave.md,
// 057, 058): 600 password sign-ins from 200 client addresses (trusted proxy header, rate limits on: three each,
// exactly the per-address limit) over 30 accounts — leaked right passwords for 6, guesses for the rest — and 30
// addresses with no account, spread over two instances on one PostgreSQL database (one instance on SQLite, whose
// lone process counts in memory). None of them gets a session; at most 10 wrong passwords are compared per
// account and window; every leaked right password meets the lock or the new-device step; an address with an
// account and one without get the same answers; each owner then gets in from a known browser, with a passkey
// and with an e-mailed code; each locked account's owner gets one mail. Bounded: every loop counted, test-only
// hashing (ADR 032), and the whole run ends by itself in well under a minute.
//
// The hasher may be full (ADR 061): on a loaded machine even the test-only hash takes long enough for the wave to
// exceed what it serves, and a stranger is then refused at once, 429 TOO_MANY_REQUESTS, uncompared and uncounted.
// So the rule checked for every identifier is the lockout's own, whatever the hasher did: of its wrong passwords
// that the hasher took, the first 10 are compared (401) and the rest refused as locked.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, eventually, uniqueEmail, type ApiResponse } from "../support/client";
import { createTestDatabase, databaseKindUnderTest, type TestDatabase } from "../support/database";
import { expectNoNewMail, mailCount, nextMail } from "../support/mail";
import { Mailbox } from "../support/mailbox";
import { startServer, type TestServer } from "../support/server";
import { query } from "../support/sql";
import { SoftAuthenticator } from "../support/webauthn";

const onPostgres = databaseKindUnderTest() === "postgres";
const MAX_COMPARED = 10;
const WRONG_PER_GUESSED = MAX_COMPARED + 1;
const LEAKED_ATTEMPTS = { wrong: 5, right: 1 };
const ADDRESSES = 200;
const CONCURRENCY = 12;
const LOCK_MAIL = /Wrong passwords were tried on your account/;
const CODE_MAIL = /sign-in code/;
const NEW_DEVICE_STEP = { twoFactorRedirect: true, twoFactorMethods: ["otp"], newDeviceVerification: true };
const LOCKED = { code: "ACCOUNT_TEMPORARILY_LOCKED", message: "Account temporarily locked" };
const BUSY = { code: "TOO_MANY_REQUESTS", message: "Too many requests" };

/** A browser whose every request comes from one client address (the proxy's X-Forwarded-For). */
class Browser extends ApiClient {
  constructor(
    baseUrl: string,
    readonly address = `10.${[...randomBytes(3)].join(".")}`,
  ) {
    super(baseUrl);
  }
  override request<T = any>(method: string, path: string, options: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {}) {
    return super.request<T>(method, path, { ...options, headers: { "x-forwarded-for": this.address, ...options.headers } });
  }
}

interface Account {
  email: string;
  userId: string;
  owner: Browser;
  authenticator: SoftAuthenticator;
  leaked: boolean;
}
interface Attempt {
  email: string;
  group: "guessed" | "leaked" | "unknown-guessed" | "unknown-leaked";
  right: boolean;
}
interface Answer extends Attempt {
  response: ApiResponse;
}

let database: TestDatabase;
let instances: TestServer[];
let mailbox: Mailbox;
let accounts: Account[];
let answers: Answer[];
let sessionsBefore: number;

const sessionCount = async (userIds: string[]) =>
  Number((await query<{ n: number }>(database, `SELECT count(*) AS n FROM "session" WHERE "userId" IN (${userIds.map(() => "?").join(", ")})`, userIds))[0].n);
const failedComparisons = (userId: string) =>
  query<{ n: number }>(database, `SELECT count(*) AS n FROM "securityEvent" WHERE "userId" = ? AND "type" = 'sign_in_failed'`, [userId]).then((rows) => Number(rows[0].n));

/** `work` over `items`, `limit` at a time: every item once, in order of start. */
async function inPool<T, R>(items: T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

/** A shuffle that is the same every run (a tiny linear congruential generator), so a failure can be replayed. */
function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  let seed = 39;
  for (let i = out.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const isBusy = (r: ApiResponse) => r.status === 429 && r.body?.code === BUSY.code;

/** Each identifier's answers, by what a client acts on. */
function tally(list: Answer[]): Map<string, { compared: number; locked: number; busy: number; other: number }> {
  const out = new Map<string, { compared: number; locked: number; busy: number; other: number }>();
  for (const { email, response } of list) {
    const t = out.get(email) ?? { compared: 0, locked: 0, busy: 0, other: 0 };
    if (response.status === 401) t.compared++;
    else if (response.status === 429 && response.body?.code === LOCKED.code) t.locked++;
    else if (isBusy(response)) t.busy++;
    else t.other++;
    out.set(email, t);
  }
  return out;
}

/** Status and code, what a client acts on: the histogram of a group of identifiers. */
function histogram(list: Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { response } of list) {
    const key = `${response.status} ${response.body?.code ?? (response.body?.newDeviceVerification ? "NEW_DEVICE_STEP" : "")}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

const instanceFor = (index: number) => instances[index % instances.length];

beforeAll(async () => {
  const setUpStarted = Date.now();
  mailbox = await new Mailbox().start();
  database = await createTestDatabase();
  const env = {
    SMTP_URL: mailbox.url,
    AUTH_EMAIL_VERIFICATION: "off",
    AUTH_NEW_DEVICE_VERIFICATION: "on",
    AUTH_RATE_LIMIT: "on",
    TRUST_PROXY: "true",
  };
  instances = await Promise.all(Array.from({ length: onPostgres ? 2 : 1 }, () => startServer({ env, database })));

  // 30 accounts, each made in its owner's browser (so known there), its address verified, with a passkey.
  accounts = await inPool(Array.from({ length: 30 }, (_, i) => i), 10, async (i) => {
    const owner = new Browser(instances[0].baseUrl);
    const email = uniqueEmail("stuffed");
    const signUp = await owner.post("/api/auth/sign-up/email", { name: "Stuffed", email, password: PASSWORD });
    expect(signUp.status, signUp.text).toBe(200);
    const authenticator = new SoftAuthenticator(instances[0].origin);
    const options = await owner.get("/api/auth/passkey/generate-register-options");
    const registered = await owner.post("/api/auth/passkey/verify-registration", { response: authenticator.register(options.body).response });
    expect(registered.status, registered.text).toBe(200);
    return { email, userId: signUp.body.user.id, owner, authenticator, leaked: i < 6 };
  });
  await query(database, `UPDATE "user" SET "emailVerified" = (1=1) WHERE "id" IN (${accounts.map(() => "?").join(", ")})`, accounts.map((a) => a.userId));
  sessionsBefore = await sessionCount(accounts.map((a) => a.userId));
  const waveStarted = Date.now();

  // The wave: 24 guessed accounts and 24 addresses without one, 11 wrong passwords each; 6 leaked accounts and 6
  // addresses without one, 5 wrong and the leaked one each. 600 in all, three from each of 200 addresses.
  const nobody = Array.from({ length: 30 }, () => uniqueEmail("nobody"));
  const attempts: Attempt[] = [];
  accounts.forEach((account, i) => {
    const twin = nobody[i];
    const wrong = account.leaked ? LEAKED_ATTEMPTS.wrong : WRONG_PER_GUESSED;
    for (let n = 0; n < wrong; n++) {
      attempts.push({ email: account.email, group: account.leaked ? "leaked" : "guessed", right: false });
      attempts.push({ email: twin, group: account.leaked ? "unknown-leaked" : "unknown-guessed", right: false });
    }
    if (account.leaked) {
      attempts.push({ email: account.email, group: "leaked", right: true });
      attempts.push({ email: twin, group: "unknown-leaked", right: true });
    }
  });
  expect(attempts).toHaveLength(600);
  const addresses = Array.from({ length: ADDRESSES }, (_, i) => `172.${16 + (i >> 8)}.${i & 255}.${(i * 7) & 255}`);
  answers = await inPool(shuffled(attempts), CONCURRENCY, async (attempt, index) => {
    // A fresh browser each time (no cookies: a new device to every account), three times from each address.
    const bot = new Browser(instanceFor(index).baseUrl, addresses[index % ADDRESSES]);
    const response = await bot.post("/api/auth/sign-in/email", { email: attempt.email, password: attempt.right ? PASSWORD : `guess ${index}` });
    return { ...attempt, response };
  });
  console.log(`[stuffing] set-up ${waveStarted - setUpStarted} ms, wave ${Date.now() - waveStarted} ms`);
  // Bounded by its counts (30 accounts, 600 sign-ins); ~30 s alone on the shared 2-core machine at load 20, the
  // margin for when other suites run beside it.
}, 90_000);

afterAll(async () => {
  await Promise.all((instances ?? []).map((instance) => instance.stop()));
  await database?.drop();
  await mailbox?.stop();
});

describe(`a credential-stuffing wave (${onPostgres ? "two instances on one PostgreSQL database" : "one SQLite instance"})`, () => {
  it("gives nobody a session; a full hasher's refusals say when to come back", async () => {
    for (const { response } of answers) {
      expect(response.status, response.text).not.toBe(500);
      expect(response.body?.token).toBeUndefined();
      expect(response.setCookies.some((line) => /^latchkey\.session_token=[^;]/.test(line))).toBe(false);
      if (isBusy(response)) {
        expect(response.body).toEqual(BUSY);
        expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
        expect(response.headers.get("x-retry-after")).toBe(response.headers.get("retry-after"));
      }
    }
    expect(await sessionCount(accounts.map((a) => a.userId))).toBe(sessionsBefore);
    const busy = answers.filter((a) => isBusy(a.response)).length;
    console.log(`[stuffing] ${answers.length} sign-ins, ${busy} refused by a full hasher`);
  });

  it("compares at most 10 wrong passwords per account and window", async () => {
    const tallies = tally(answers.filter((a) => !a.right));
    for (const account of accounts) {
      // Every wrong password compared is recorded for the owner; the events say what the server compared.
      const { compared } = tallies.get(account.email)!;
      expect(compared).toBeLessThanOrEqual(MAX_COMPARED);
      expect(await eventually(() => failedComparisons(account.userId), (n) => n >= compared)).toBe(compared);
    }
    for (const { compared } of tallies.values()) expect(compared).toBeLessThanOrEqual(MAX_COMPARED);
  });

  it("answers every leaked right password with the lock or the new-device step", () => {
    const leakedRight = answers.filter((a) => a.group === "leaked" && a.right);
    expect(leakedRight).toHaveLength(6);
    for (const { response } of leakedRight) {
      if (isBusy(response)) continue; // refused uncompared by a full hasher, as every stranger then is
      if (response.status === 429) expect(response.body).toEqual(LOCKED);
      else {
        expect(response.status, response.text).toBe(200);
        expect(response.body).toEqual(NEW_DEVICE_STEP);
      }
    }
  });

  it("answers identifiers with and without an account alike", () => {
    const wrongOf = (group: Attempt["group"]) => answers.filter((a) => a.group === group && !a.right);
    // One rule for every identifier, with an account or without: of the wrong passwords the hasher took, the
    // first ten compared, the rest locked out; nothing else.
    for (const group of ["guessed", "unknown-guessed", "leaked", "unknown-leaked"] as const) {
      for (const [email, t] of tally(wrongOf(group))) {
        const taken = (group.endsWith("leaked") ? LEAKED_ATTEMPTS.wrong : WRONG_PER_GUESSED) - t.busy;
        expect({ email, ...t }).toEqual({ email, compared: Math.min(taken, MAX_COMPARED), locked: Math.max(0, taken - MAX_COMPARED), busy: t.busy, other: 0 });
      }
    }
    // With the hasher never full, the very same counts.
    if (!answers.some((a) => isBusy(a.response))) {
      expect(histogram(wrongOf("guessed"))).toEqual(histogram(wrongOf("unknown-guessed")));
      expect(histogram(wrongOf("guessed"))).toEqual({ "401 INVALID_EMAIL_OR_PASSWORD": 24 * MAX_COMPARED, [`429 ${LOCKED.code}`]: 24 });
      expect(histogram(wrongOf("leaked"))).toEqual(histogram(wrongOf("unknown-leaked")));
    }
    // The same headers and cookies too, refusal for refusal.
    const names = (group: Attempt["group"], status: number) => {
      const found = answers.find((a) => a.group === group && a.response.status === status)!.response;
      return { headers: [...found.headers.keys()].filter((name) => name !== "date").sort(), cookies: found.setCookies.map((line) => line.split("=")[0]).sort() };
    };
    expect(names("guessed", 401)).toEqual(names("unknown-guessed", 401));
    expect(names("guessed", 429)).toEqual(names("unknown-guessed", 429));
  });

  it("mails each locked account's owner once, and nobody else", async () => {
    // Locked: the wrong password that took the tenth place was compared.
    const tallies = tally(answers.filter((a) => !a.right));
    const locked = accounts.filter((account) => tallies.get(account.email)!.compared === MAX_COMPARED);
    expect(locked.length).toBeGreaterThan(0);
    for (const account of locked) await nextMail(mailbox, account.email, LOCK_MAIL, 0);
    await expectNoNewMail(mailbox, locked[0].email, mailbox.to(locked[0].email).length);
    for (const account of accounts) expect(mailCount(mailbox, account.email, LOCK_MAIL), account.email).toBe(locked.includes(account) ? 1 : 0);
  });

  it("lets each owner in from a known browser, with a passkey and with an e-mailed code", async () => {
    await inPool(accounts, 6, async (account, i) => {
      const target = instanceFor(i);
      // The browser that made the account: its own bucket, untouched by the wave.
      const known = new Browser(target.baseUrl, account.owner.address);
      for (const [name, value] of account.owner.cookies) known.cookies.set(name, value);
      const password = await known.post("/api/auth/sign-in/email", { email: account.email, password: PASSWORD });
      expect(password.status, password.text).toBe(200);
      expect(password.body.token).toEqual(expect.any(String));

      const passkeyBrowser = new Browser(instances[0].baseUrl);
      const challenge = await passkeyBrowser.post("/api/auth/passkey/generate-authenticate-options", {});
      const passkey = await passkeyBrowser.post("/api/auth/passkey/verify-authentication", { response: account.authenticator.authenticate(challenge.body) });
      expect(passkey.status, passkey.text).toBe(200);
      expect(passkey.body.session.token).toEqual(expect.any(String));

      const codeBrowser = new Browser(target.baseUrl);
      const seen = mailCount(mailbox, account.email, CODE_MAIL);
      expect((await codeBrowser.post("/api/auth/email-otp/send-verification-otp", { email: account.email, type: "sign-in" })).status).toBe(200);
      const otp = (await nextMail(mailbox, account.email, CODE_MAIL, seen)).text.match(/Your code: (\d{6})/)![1];
      const code = await codeBrowser.post("/api/auth/sign-in/email-otp", { email: account.email, otp });
      expect(code.status, code.text).toBe(200);
      expect(code.body.token).toEqual(expect.any(String));
    });
  }, 45_000);
});
