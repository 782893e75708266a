// Password hashing at the production cost (this file opts out of the test suites' cheap hashing, ADR 032): the
// stored format, the refusal of test-only hashes, and equal work for known and unknown accounts — a wrong
// password costs the same scrypt work whether or not the address or username has an account, so the answer's
// timing cannot tell who is registered. Counted, not timed: each check derives exactly one production-cost key.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDomain, type DomainHandle } from "../support/domain";

const derivations = vi.hoisted(() => ({ production: 0, other: 0 }));
vi.mock("node:crypto", async (importOriginal) => {
  const original = await importOriginal<typeof import("node:crypto")>();
  const scrypt = ((...args: Parameters<typeof original.scrypt>) => {
    const options = args[3] as { N?: number } | undefined;
    if (options?.N === 16384) derivations.production += 1;
    else derivations.other += 1;
    return (original.scrypt as (...a: unknown[]) => void)(...args);
  }) as typeof original.scrypt;
  return { ...original, default: { ...original, scrypt }, scrypt };
});

let domain: DomainHandle;
let credentials: typeof import("~/auth/sign-in/credentials.server");
let usernames: typeof import("~/auth/username/username.server");
let password: typeof import("~/auth/account/password.server");

beforeAll(async () => {
  process.env.AUTH_TEST_PASSWORD_HASHING = "production";
  domain = await openDomain("sqlite");
  credentials = await import("~/auth/sign-in/credentials.server");
  usernames = await import("~/auth/username/username.server");
  password = await import("~/auth/account/password.server");
  const hash = await password.hashPassword("the right password");
  await domain.db.user.create({
    data: { name: "W", email: "work@example.com", username: "worker", accounts: { create: { providerId: "credential", accountId: "work", password: hash } } },
  });
  // The decoy is hashed once, on first use; take that out of the counts.
  await password.verifyAgainstDecoy("warm-up");
});
afterAll(async () => {
  await domain?.close();
  delete process.env.AUTH_TEST_PASSWORD_HASHING;
});

/**
 * The request a sign-in came through: only its address and User-Agent (for a failed sign-in's event) and its
 * device cookie (none here: the account's new-devices bucket, ADR 057) are read.
 */
const CTX = { clientIp: "203.0.113.9", userAgent: "vitest", request: new Request("http://localhost/sign-in") } as Parameters<typeof credentials.verifyCredentials>[0];

async function workOf(attempt: () => Promise<unknown>): Promise<typeof derivations> {
  derivations.production = 0;
  derivations.other = 0;
  await attempt().catch(() => {});
  return { ...derivations };
}

describe("a wrong password costs the same for known and unknown accounts", () => {
  it("by e-mail address", async () => {
    const known = await workOf(() => credentials.verifyCredentials(CTX, "work@example.com", "not the password"));
    const unknown = await workOf(() => credentials.verifyCredentials(CTX, "nobody@example.com", "not the password"));
    expect(known).toEqual({ production: 1, other: 0 });
    expect(unknown).toEqual(known);
  });

  it("by username", async () => {
    const known = await workOf(() => usernames.verifyUsernameCredentials(CTX, "worker", "not the password"));
    const unknown = await workOf(() => usernames.verifyUsernameCredentials(CTX, "ghost", "not the password"));
    expect(known).toEqual({ production: 1, other: 0 });
    expect(unknown).toEqual(known);
  });
});

describe("stored hashes", () => {
  it("are scrypt salt:key in hex at the production cost, never the password", async () => {
    const work = await workOf(() => password.hashPassword("a password to store"));
    expect(work).toEqual({ production: 1, other: 0 });
    const stored = await password.hashPassword("a password to store");
    expect(stored).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
    expect(await password.verifyPassword("a password to store", stored)).toBe(true);
    expect(await password.verifyPassword("another password", stored)).toBe(false);
  });

  it("refuses a test-only hash outside a test run's fast mode, whatever password is given", async () => {
    // What a server in fast mode would have stored for "letmein" (salt and key are valid hex of the right sizes).
    const { scryptSync } = await import("node:crypto");
    const salt = "00112233445566778899aabbccddeeff";
    const key = scryptSync("letmein", salt, 64, { N: 1024, r: 8, p: 1 }).toString("hex");
    expect(await password.verifyPassword("letmein", `test-only$${salt}:${key}`)).toBe(false);
  });
});
