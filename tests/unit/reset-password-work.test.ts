// A bad reset token must be refused before any scrypt work: a stream of guesses at POST /reset-password would
// otherwise slow everyone else's sign-in (each hash holds the libuv pool and 32 MiB).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDomain, type DomainHandle } from "../support/domain";

const hashCalls = vi.hoisted(() => ({ count: 0 }));
vi.mock("~/auth/account/password.server", async (importOriginal) => {
  const original = await importOriginal<typeof import("~/auth/account/password.server")>();
  return {
    ...original,
    hashPassword: async (password: string) => {
      hashCalls.count += 1;
      return original.hashPassword(password);
    },
  };
});

let domain: DomainHandle;
let flows: typeof import("~/auth/account/password-flows.server");

beforeAll(async () => {
  domain = await openDomain("sqlite");
  flows = await import("~/auth/account/password-flows.server");
});
afterAll(async () => {
  await domain?.close();
});

describe("POST /forget-password work", () => {
  it("answers before looking the address up, so known and unknown addresses take the same time", async () => {
    const { db } = domain;
    await db.user.create({ data: { name: "F", email: "forgot-work@example.com" } });
    const lookups: string[] = [];
    const original = db.user.findUnique.bind(db.user);
    const spy = vi.spyOn(db.user, "findUnique").mockImplementation(((args: { where: { email?: string } }) => {
      lookups.push(args.where.email ?? "?");
      return original(args as never);
    }) as never);
    try {
      for (const email of ["forgot-work@example.com", "nobody-here@example.com"]) {
        const answer = await flows.requestPasswordReset({ email });
        expect(answer).toEqual({ status: true, message: flows.RESET_REQUESTED_MESSAGE });
        expect(lookups).toEqual([]); // nothing yet: the work comes after the answer
        // Done after the answer: waited for, not given a fixed 50 ms a loaded machine may need more than.
        await expect.poll(() => lookups, { timeout: 10_000 }).toEqual([email]);
        lookups.length = 0;
      }
    } finally {
      spy.mockRestore();
    }
  });
});

/** What a page or endpoint passes: a request from a browser without cookies. */
const ctx = () => ({ request: new Request("http://localhost:3000/reset-password"), clientIp: "127.0.0.1", userAgent: null, responseHeaders: new Headers() });

describe("POST /reset-password work", () => {
  it("refuses an unknown token without hashing the new password", async () => {
    hashCalls.count = 0;
    await expect(flows.resetPassword(ctx(), { token: "no-such-token-000000000000", newPassword: "a-new-password" })).rejects.toMatchObject({
      code: "INVALID_TOKEN",
    });
    expect(hashCalls.count).toBe(0);
  });

  it("hashes once for a good token", async () => {
    const { db } = domain;
    const { issueToken } = await import("~/auth/verification.server");
    const user = await db.user.create({ data: { name: "R", email: "reset-work@example.com" } });
    const token = await issueToken("reset-password", { userId: user.id }, { ttlSeconds: 60, length: 24 });
    hashCalls.count = 0;
    await expect(flows.resetPassword(ctx(), { token, newPassword: "a-new-password" })).resolves.toEqual({ status: true });
    expect(hashCalls.count).toBe(1);
  });
});
