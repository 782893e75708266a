// Which thrown values become answers: catalogue errors as themselves, a write whose row vanished (a concurrent
// deletion) as "User not found", anything else as a fault.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDomain, type DomainHandle } from "../support/domain";

let domain: DomainHandle;
let knownError: typeof import("~/http/known-error.server").knownError;
let AuthError: typeof import("~/auth/errors").AuthError;

beforeAll(async () => {
  domain = await openDomain("sqlite");
  ({ knownError } = await import("~/http/known-error.server"));
  ({ AuthError } = await import("~/auth/errors"));
});
afterAll(async () => {
  await domain?.close();
});

describe("knownError", () => {
  it("passes catalogue errors through unchanged", () => {
    const error = new AuthError("INVALID_PASSWORD");
    expect(knownError(error)).toBe(error);
  });

  it("answers a real Prisma 'record not found' from a write as USER_NOT_FOUND", async () => {
    const thrown = await domain.db.user.update({ where: { id: "deleted-a-moment-ago" }, data: { name: "x" } }).catch((e) => e);
    expect(knownError(thrown)?.toJSON()).toEqual({ code: "USER_NOT_FOUND", message: "User not found" });
    expect(knownError(thrown)?.status).toBe(404);
  });

  it("answers a real Prisma foreign-key failure (a row written for a deleted user) as USER_NOT_FOUND", async () => {
    const thrown = await domain.db.session
      .create({ data: { userId: "deleted-a-moment-ago", token: "orphan", expiresAt: new Date(Date.now() + 60_000) } })
      .catch((e) => e);
    expect(knownError(thrown)?.code).toBe("USER_NOT_FOUND");
  });

  it("answers the same failure from sign-in's raw session insert (P2010 underneath) as USER_NOT_FOUND", async () => {
    const { insertSession } = await import("~/auth/session/store.server");
    const thrown = await insertSession({
      userId: "deleted-a-moment-ago",
      token: "orphan-raw",
      expiresAt: new Date(Date.now() + 60_000),
      rememberMe: true,
      ipAddress: null,
      userAgent: null,
    }).catch((e) => e);
    expect((thrown as { code?: string }).code).toBe("P2010");
    expect(knownError(thrown)?.code).toBe("USER_NOT_FOUND");
  });

  it("leaves every other failure to be logged as a fault", () => {
    expect(knownError(new TypeError("boom"))).toBeNull();
    expect(knownError("a string")).toBeNull();
  });
});
