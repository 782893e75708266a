// Guess caps under concurrency (issue 24, item 3; docs/decisions/029-atomic-guess-counting.md). A guess is
// counted before it is compared, in one conditional statement, so of many guesses sent at once against one code
// or one two-factor attempt at most the cap are compared: the right code sent after the first few is refused.
// And an account's wrong guesses are capped together, across codes, attempts and instances. Every request here
// comes from its own client address (trusted proxy header, rate limits on), as an attacker's botnet's would.
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, uniqueEmail, type ApiResponse } from "../support/client";
import { cloneClient } from "../support/cookies";
import { mailCount, nextMail } from "../support/mail";
import type { Mailbox } from "../support/mailbox";
import { startServer, useServerWithMailbox, type TestServer } from "../support/server";
import { query } from "../support/sql";
import { chooseEmailedCode, enableTwoFactor, freshCode, TWO_FACTOR_REDIRECT, TWO_FACTOR_REDIRECT_WITH_OTP } from "../support/two-factor";

/** The per-account budget (WRONG_CODE_GUESSES_PER_ACCOUNT) and the per-code caps, as the API must honour them. */
const ACCOUNT_BUDGET = 10;
const EMAIL_CODE_CAP = 3;
const TWO_FACTOR_CAP = 5;
const SIGN_UP_CODE_CAP = 5;

const ENV = { AUTH_EMAIL_VERIFICATION: "off", AUTH_RATE_LIMIT: "on", TRUST_PROXY: "true" };
let mailbox: Mailbox;
let server: TestServer;
useServerWithMailbox(ENV, (running) => ({ server, mailbox } = running));

const uniqueIp = () => `10.${[...randomBytes(3)].join(".")}`;

/** A browser whose every request arrives from a new client address, so no per-address limit ever applies. */
class Botnet extends ApiClient {
  override request<T = any>(method: string, path: string, options: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {}) {
    return super.request<T>(method, path, { ...options, headers: { "x-forwarded-for": uniqueIp(), ...options.headers } });
  }
}
const botnet = (target = server) => new Botnet(target.baseUrl);
/** Another browser that shares `client`'s cookies (the same sign-in attempt), on `target`. */
const sameBrowser = (client: ApiClient, target = server) => {
  const copy = botnet(target);
  for (const [name, value] of client.cookies) copy.cookies.set(name, value);
  return copy;
};

const statuses = (responses: ApiResponse[]) => responses.map((r) => r.status);
const wrongFor = (code: string) => (code === "123456" ? "654321" : "123456");

/** `count` guesses sent at once, the right one `rightAt` (0-based) and the rest wrong. */
const burst = (count: number, rightAt: number | null, send: (right: boolean) => Promise<ApiResponse>) =>
  Promise.all(Array.from({ length: count }, (_, i) => send(i === rightAt)));

async function newAccount(): Promise<{ email: string; client: ApiClient }> {
  const client = botnet();
  const email = uniqueEmail("guess");
  const response = await client.post("/api/auth/sign-up/email", { name: "Guess Target", email, password: PASSWORD });
  expect(response.status, response.text).toBe(200);
  return { email, client };
}

const OTP_SUBJECTS = { "sign-in": /sign-in code/, "email-verification": /verification code/, "forget-password": /password reset code/ } as const;
type OtpType = keyof typeof OTP_SUBJECTS;

async function mailedCode(email: string, type: OtpType, target = server): Promise<string> {
  const seen = mailCount(mailbox, email, OTP_SUBJECTS[type]);
  const response = await botnet(target).post("/api/auth/email-otp/send-verification-otp", { email, type });
  expect(response.status, response.text).toBe(200);
  return (await nextMail(mailbox, email, OTP_SUBJECTS[type], seen)).text.match(/Your code: (\d{6})/)![1];
}

/** Each way an e-mailed code is used, with the type of code it takes. */
const CODE_USES: Array<{ name: string; type: OtpType; guess: (target: TestServer, email: string, otp: string) => Promise<ApiResponse> }> = [
  { name: "POST /sign-in/email-otp", type: "sign-in", guess: (t, email, otp) => botnet(t).post("/api/auth/sign-in/email-otp", { email, otp }) },
  { name: "POST /email-otp/verify-email", type: "email-verification", guess: (t, email, otp) => botnet(t).post("/api/auth/email-otp/verify-email", { email, otp }) },
  {
    name: "POST /email-otp/reset-password",
    type: "forget-password",
    guess: (t, email, otp) => botnet(t).post("/api/auth/email-otp/reset-password", { email, otp, password: "a new passphrase 42" }),
  },
  {
    name: "POST /email-otp/check-verification-otp",
    type: "sign-in",
    guess: (t, email, otp) => botnet(t).post("/api/auth/email-otp/check-verification-otp", { email, type: "sign-in", otp }),
  },
];

/** The verification row of a keyed entry: "<purpose>:<sha256 of the key>". */
const entryRow = (purpose: string, key: string) => `${purpose}:${createHash("sha256").update(key).digest("hex")}`;
const setAttempts = (identifier: string, attempts: number) =>
  query(server.database, `UPDATE "verification" SET "attempts" = ? WHERE "identifier" = ?`, [attempts, identifier]);
/** The key a signed cookie carries ("value.signature"). */
const cookieKey = (client: ApiClient, name: string) => {
  const signed = decodeURIComponent(client.cookies.get(name)!);
  return signed.slice(0, signed.lastIndexOf("."));
};

describe("e-mailed codes: a guess is counted before it is compared", () => {
  it.each(CODE_USES)("$name: while the code's last guess is taken (being compared elsewhere), the right code is refused uncompared", async ({ type, guess }) => {
    const { email } = await newAccount();
    const code = await mailedCode(email, type);
    for (let i = 0; i < EMAIL_CODE_CAP - 1; i++) expect((await guess(server, email, wrongFor(code))).body.code).toBe("INVALID_OTP");
    // A third guess is in flight on some instance: it holds the last of the three.
    const row = entryRow(`email-otp-${type}`, email);
    await setAttempts(row, EMAIL_CODE_CAP);
    const refused = await guess(server, email, code);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: "TOO_MANY_ATTEMPTS", message: "Too many attempts" });
    // That guess turns out right and leaves the code in use (check-verification-otp): the guess it held is free.
    await setAttempts(row, EMAIL_CODE_CAP - 1);
    expect((await guess(server, email, code)).status).toBe(200);
  });

  it.each(CODE_USES)("$name: 40 guesses at once from 40 addresses, the right one among them: at most one success, 10 counted", async ({ type, guess }) => {
    const { email } = await newAccount();
    const code = await mailedCode(email, type);
    const answers = await burst(40, 20, (right) => guess(server, email, right ? code : wrongFor(code)));
    const counts = (status: number) => answers.filter((r) => r.status === status).length;
    expect(answers.every((r) => [200, 400, 403, 429].includes(r.status)), JSON.stringify(statuses(answers))).toBe(true);
    expect(counts(200)).toBeLessThanOrEqual(1);
    // The address's budget lets 10 through (and one more if a right guess gave its place back).
    expect(counts(429)).toBeGreaterThanOrEqual(40 - ACCOUNT_BUDGET - 1);
  });

  it("a right code after two wrong ones still works (the cap counts guesses, it does not refuse early)", async () => {
    const { email } = await newAccount();
    const code = await mailedCode(email, "sign-in");
    for (let i = 0; i < EMAIL_CODE_CAP - 1; i++) expect((await CODE_USES[0].guess(server, email, wrongFor(code))).body.code).toBe("INVALID_OTP");
    expect((await CODE_USES[0].guess(server, email, code)).status).toBe(200);
  });
});

describe("two-factor: a guess at the attempt is counted before it is compared, with every kind of code", () => {
  async function attemptOf() {
    const { email, client } = await newAccount();
    const { totpURI, backupCodes, used } = await enableTwoFactor(client);
    await chooseEmailedCode(client); // so the e-mailed code is one of the attempt's methods (ADR 027)
    const browser = botnet();
    const signIn = await browser.post("/api/auth/sign-in/email", { email, password: PASSWORD });
    expect(signIn.body).toEqual(TWO_FACTOR_REDIRECT_WITH_OTP);
    return { email, totpURI, backupCodes, used, browser, row: entryRow("two-factor-attempt", cookieKey(browser, "latchkey.two_factor")) };
  }
  type Attempt = Awaited<ReturnType<typeof attemptOf>>;

  const KINDS = [
    { kind: "TOTP", path: "verify-totp", right: async (a: Attempt) => freshCode(a.totpURI, a.used), wrong: "000000" },
    { kind: "backup code", path: "verify-backup-code", right: async (a: Attempt) => a.backupCodes[0], wrong: "aaaaa-bbbbb" },
    {
      kind: "e-mailed code",
      path: "verify-otp",
      right: async (a: Attempt) => {
        const seen = mailCount(mailbox, a.email);
        expect((await a.browser.post("/api/auth/two-factor/send-otp", {})).status).toBe(200);
        return (await nextMail(mailbox, a.email, undefined, seen)).text.match(/\b(\d{6})\b/)![1];
      },
      wrong: "000000",
    },
  ];

  it.each(KINDS)("$kind: while the attempt's fifth guess is taken, the right code is refused uncompared", async ({ path, right, wrong }) => {
    const attempt = await attemptOf();
    const code = await right(attempt);
    const wrongCode = code === wrong ? "111111" : wrong;
    for (let i = 0; i < TWO_FACTOR_CAP - 1; i++) {
      expect((await attempt.browser.post(`/api/auth/two-factor/${path}`, { code: wrongCode })).body.code).toBe("INVALID_TWO_FACTOR_AUTHENTICATION");
    }
    await setAttempts(attempt.row, TWO_FACTOR_CAP);
    const refused = await attempt.browser.post(`/api/auth/two-factor/${path}`, { code });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe("INVALID_TWO_FACTOR_AUTHENTICATION");
    expect((await attempt.browser.get("/api/auth/get-session")).body).toBeNull();
    await setAttempts(attempt.row, TWO_FACTOR_CAP - 1);
    expect((await attempt.browser.post(`/api/auth/two-factor/${path}`, { code })).status).toBe(200);
  });

  it.each(KINDS)("$kind: 10 guesses at once from 10 addresses, the right one among them: at most one success, then the attempt is over", async ({ path, right, wrong }) => {
    const attempt = await attemptOf();
    const code = await right(attempt);
    const wrongCode = code === wrong ? "111111" : wrong;
    const answers = await burst(ACCOUNT_BUDGET, 6, (isRight) => sameBrowser(attempt.browser).post(`/api/auth/two-factor/${path}`, { code: isRight ? code : wrongCode }));
    expect(answers.every((r) => r.status === 200 || r.status === 401), JSON.stringify(statuses(answers))).toBe(true);
    expect(answers.filter((r) => r.status === 200).length).toBeLessThanOrEqual(1);
    const after = await sameBrowser(attempt.browser).post(`/api/auth/two-factor/${path}`, { code });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe("INVALID_TWO_FACTOR_COOKIE");
  });

  it("ten right backup codes sent at once to one attempt: one signs in, and at most five were even compared (used up)", async () => {
    const attempt = await attemptOf();
    const answers = await Promise.all(attempt.backupCodes.map((code) => sameBrowser(attempt.browser).post("/api/auth/two-factor/verify-backup-code", { code })));
    expect(answers.filter((r) => r.status === 200).length).toBe(1);
    // Each code still unused signs in once more (a used one would be a wrong guess, and there are at most 5).
    let stillGood = 0;
    for (const code of attempt.backupCodes) {
      const browser = botnet();
      expect((await browser.post("/api/auth/sign-in/email", { email: attempt.email, password: PASSWORD })).body).toEqual(TWO_FACTOR_REDIRECT_WITH_OTP);
      if ((await browser.post("/api/auth/two-factor/verify-backup-code", { code })).status === 200) stillGood++;
    }
    expect(stillGood).toBeGreaterThanOrEqual(attempt.backupCodes.length - TWO_FACTOR_CAP);
  });
});

describe("the per-account cap on wrong guesses", () => {
  let second: TestServer;
  beforeAll(async () => {
    // A second instance on the same database: the cap must hold across instances.
    second = await startServer({ database: server.database, env: { SMTP_URL: mailbox.url, ...ENV } });
  });
  afterAll(async () => {
    await second?.stop();
  });
  const either = (i: number) => (i % 2 === 0 ? server : second);

  it("e-mailed codes: of 40 guesses at once on two instances, exactly 10 are counted; then even a new right code is refused 429", async () => {
    const { email } = await newAccount();
    const first = await mailedCode(email, "sign-in");
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => CODE_USES[0].guess(either(i), email, wrongFor(first))));
    expect(answers.filter((r) => r.status === 429).length).toBe(40 - ACCOUNT_BUDGET);
    const refused = answers.find((r) => r.status === 429)!;
    expect(refused.body).toEqual({ code: "TOO_MANY_REQUESTS", message: "Too many requests" });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // A fresh code does not start the count again: the account's budget is spent, on either instance.
    for (const target of [second, server]) {
      const fresh = await mailedCode(email, "sign-in", target);
      expect((await CODE_USES[0].guess(target, email, fresh)).status).toBe(429);
    }
  });

  it("answers an address with no account exactly as one with an account (no enumeration)", async () => {
    const { email: known } = await newAccount();
    const unknown = uniqueEmail("nobody");
    const tally = async (email: string) => {
      const answers = await Promise.all(Array.from({ length: 15 }, (_, i) => CODE_USES[0].guess(either(i), email, "123456")));
      return statuses(answers).sort();
    };
    const [forKnown, forUnknown] = [await tally(known), await tally(unknown)];
    expect(forUnknown).toEqual(forKnown);
    expect(forKnown.filter((status) => status === 429).length).toBe(15 - ACCOUNT_BUDGET);
  });

  it("two-factor: attempts opened on two instances share one budget of 10 wrong guesses; right codes cost nothing", async () => {
    const { email, client } = await newAccount();
    const { totpURI, backupCodes, used } = await enableTwoFactor(client);
    const attemptOn = async (target: TestServer) => {
      const browser = botnet(target);
      expect((await browser.post("/api/auth/sign-in/email", { email, password: PASSWORD })).body).toEqual(TWO_FACTOR_REDIRECT);
      return browser;
    };
    // A right code is not a wrong guess: signing in again and again costs nothing.
    for (let i = 0; i < 3; i++) {
      const browser = await attemptOn(either(i));
      expect((await browser.post("/api/auth/two-factor/verify-backup-code", { code: backupCodes[i] })).status).toBe(200);
    }
    // Four attempts, two per instance, four wrong guesses at each (under its cap of 5), all at once: exactly the
    // budget's 10 are counted and compared, the other 6 refused.
    const attempts = await Promise.all([server, second, server, second].map(attemptOn));
    const answers = await Promise.all(
      attempts.flatMap((browser, a) => Array.from({ length: 4 }, () => sameBrowser(browser, either(a)).post("/api/auth/two-factor/verify-totp", { code: "000000" }))),
    );
    expect(answers.filter((r) => r.status === 429).length).toBe(16 - ACCOUNT_BUDGET);
    expect(answers.filter((r) => r.status === 401).length).toBe(ACCOUNT_BUDGET);
    // A new attempt, on either instance, is refused before its code is even compared: the right code gets 429.
    for (const target of [server, second]) {
      const browser = await attemptOn(target);
      const refused = await browser.post("/api/auth/two-factor/verify-totp", { code: freshCode(totpURI, used) });
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe("TOO_MANY_REQUESTS");
      expect((await browser.get("/api/auth/get-session")).body).toBeNull();
    }
  });
});

describe("passkey sign-up codes", () => {
  async function browserWithCode() {
    const browser = botnet();
    const email = uniqueEmail("passkey-guess");
    expect((await browser.post("/api/auth/passkey/sign-up/send-code", { name: "P", email })).status).toBe(200);
    const code = /Your code: (\d{6})/.exec((await mailbox.waitFor(email, /sign-up code/i)).text)![1];
    return { browser, code };
  }
  const wrongCode = (code: string) => (code === "000000" ? "111111" : "000000");
  const options = (browser: ApiClient, code: string) => sameBrowser(browser).post("/api/auth/passkey/sign-up/generate-register-options", { code });

  it("five wrong guesses end the code (there was no cap at all)", async () => {
    const { browser, code } = await browserWithCode();
    for (let i = 0; i < SIGN_UP_CODE_CAP; i++) expect((await options(browser, wrongCode(code))).body.code).toBe("INVALID_CODE");
    const after = await options(browser, code);
    expect(after.status).toBe(400);
    expect(after.body.code).toBe("INVALID_CODE");
  });

  it("a right guess does not count; 20 wrong guesses at once end the code, however they interleave", async () => {
    const { browser, code } = await browserWithCode();
    expect((await options(browser, code)).status).toBe(200);
    const answers = await burst(20, null, () => options(browser, wrongCode(code)));
    // 400 while the address's budget of wrong guesses lasts (ADR 037: six digits, so the budget applies), then 429.
    expect(statuses(answers).every((status) => status === 400 || status === 429), JSON.stringify(statuses(answers))).toBe(true);
    expect([400, 429]).toContain((await options(browser, code)).status);
  });

  it("while the code's fifth guess is taken, the right code is refused uncompared", async () => {
    const { browser, code } = await browserWithCode();
    const row = entryRow("passkey-sign-up-code", cookieKey(browser, "latchkey.passkey_sign_up"));
    await setAttempts(row, SIGN_UP_CODE_CAP);
    expect((await options(browser, code)).body.code).toBe("INVALID_CODE");
    await setAttempts(row, SIGN_UP_CODE_CAP - 1);
    expect((await options(browser, code)).status).toBe(200);
  });

  it("six digits are enough because the address's budget caps wrong guesses across new codes (ADR 037)", async () => {
    const browser = botnet();
    const email = uniqueEmail("passkey-budget");
    let wrong = 0;
    let refused: ApiResponse | null = null;
    for (let round = 0; round < 4 && !refused; round++) {
      const seen = mailCount(mailbox, email);
      expect((await browser.post("/api/auth/passkey/sign-up/send-code", { name: "P", email })).status).toBe(200);
      const code = /Your code: (\d{6})/.exec((await nextMail(mailbox, email, /sign-up code/i, seen)).text)![1];
      for (let i = 0; i < SIGN_UP_CODE_CAP && !refused; i++) {
        const answer = await options(browser, wrongCode(code));
        if (answer.status === 429) refused = answer;
        else wrong += 1;
      }
    }
    expect(wrong).toBe(ACCOUNT_BUDGET);
    expect(refused?.body.code).toBe("TOO_MANY_REQUESTS");
  });

  it("a code asked for again replaces the earlier one", async () => {
    const browser = botnet();
    const email = uniqueEmail("passkey-again");
    const codes: string[] = [];
    for (let i = 0; i < 2; i++) {
      const seen = mailCount(mailbox, email);
      expect((await browser.post("/api/auth/passkey/sign-up/send-code", { name: "P", email })).status).toBe(200);
      codes.push(/Your code: (\d{6})/.exec((await nextMail(mailbox, email, /sign-up code/i, seen)).text)![1]);
    }
    if (codes[0] !== codes[1]) expect((await options(browser, codes[0])).status).toBe(400);
    expect((await options(browser, codes[1])).status).toBe(200);
  });
});
