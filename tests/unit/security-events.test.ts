// Security events in process (docs/decisions/048-security-events.md): what follows an event waits for its
// transaction's commit (and never follows a rollback), retention, the refusal of secret-looking details, the
// limit and cursor rules, and the words people read.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SECURITY_EVENT_TYPES } from "~/auth/security-events/types";
import { openDomain, type DomainHandle } from "../support/domain";

let domain: DomainHandle;
let record: typeof import("~/auth/security-events/record.server");
let events: typeof import("~/auth/security-events/events.server");
let words: typeof import("~/auth/security-events/words");
let housekeeping: typeof import("~/auth/housekeeping.server");
let userId: string;
const CTX = { clientIp: "203.0.113.7", userAgent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36" };
const DAY_MS = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  process.env.AUTH_EVENT_LOG = "stdout";
  domain = await openDomain("sqlite");
  record = await import("~/auth/security-events/record.server");
  events = await import("~/auth/security-events/events.server");
  words = await import("~/auth/security-events/words");
  housekeeping = await import("~/auth/housekeeping.server");
  userId = (await domain.db.user.create({ data: { name: "E", email: "events@example.com" } })).id;
});
afterAll(async () => {
  await domain?.close();
  delete process.env.AUTH_EVENT_LOG;
});

/** The JSON lines written to standard output while `work` runs, and whether any was written before `checkpoint`. */
async function loggedDuring(work: (checkpoint: () => void) => Promise<unknown>) {
  const lines: string[] = [];
  let beforeCheckpoint = 0;
  const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    if (String(chunk).startsWith("{")) lines.push(String(chunk));
    return true;
  });
  try {
    await work(() => (beforeCheckpoint = lines.length)).catch(() => {});
  } finally {
    spy.mockRestore();
  }
  return { lines: lines.map((line) => JSON.parse(line)), beforeCheckpoint };
}

describe("after the commit, never after a rollback", () => {
  it("a committed event is logged once the transaction has committed, not inside it", async () => {
    const { lines, beforeCheckpoint } = await loggedDuring(async (checkpoint) => {
      await domain.db.$transaction(async (tx) => {
        await record.recordSecurityEvent(tx, { userId, type: "password_changed", ctx: CTX });
        checkpoint();
      });
    });
    expect(beforeCheckpoint).toBe(0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ kind: "security_event", type: "password_changed", userId, ipAddress: "203.0.113.7", device: "Chrome on Linux" });
  });

  it("a transaction that rolls back leaves neither the event nor its log line", async () => {
    const before = await domain.db.securityEvent.count({ where: { userId, type: "two_factor_disabled" } });
    const { lines } = await loggedDuring(() =>
      domain.db.$transaction(async (tx) => {
        await record.recordSecurityEvent(tx, { userId, type: "two_factor_disabled", ctx: CTX });
        throw new Error("the change failed");
      }),
    );
    expect(lines).toEqual([]);
    expect(await domain.db.securityEvent.count({ where: { userId, type: "two_factor_disabled" } })).toBe(before);
  });

  it("refuses details keyed like a secret, before writing anything", async () => {
    for (const key of ["token", "passwordHash", "backupCodes", "otp", "sessionCookie", "secret"]) {
      await expect(record.recordSecurityEvent(domain.db, { userId, type: "sign_in", details: { [key]: "x" } })).rejects.toThrow(/must not hold/);
    }
  });
});

describe("retention and listing", () => {
  it("housekeeping deletes events older than AUTH_SECURITY_EVENT_DAYS (180) and keeps newer ones; the list never shows them", async () => {
    const other = await domain.db.user.create({ data: { name: "R", email: "retention@example.com" } });
    await domain.db.securityEvent.createMany({
      data: [
        { userId: other.id, type: "sign_in", createdAt: new Date(Date.now() - 181 * DAY_MS) },
        { userId: other.id, type: "sign_out", createdAt: new Date(Date.now() - 179 * DAY_MS) },
      ],
    });
    expect((await events.listSecurityEvents(other.id)).events.map((e) => e.type)).toEqual(["sign_out"]);
    await housekeeping.deleteExpiredRows();
    expect((await domain.db.securityEvent.findMany({ where: { userId: other.id } })).map((e) => e.type)).toEqual(["sign_out"]);
  });

  it("events of the same moment page by id, and a cursor is bound to its account", async () => {
    const owner = await domain.db.user.create({ data: { name: "P", email: "paging@example.com" } });
    const at = new Date();
    await domain.db.securityEvent.createMany({ data: ["a", "b", "c"].map((id) => ({ id: `${owner.id}-${id}`, userId: owner.id, type: "sign_in", createdAt: at })) });
    const first = await events.listSecurityEvents(owner.id, { limit: 2 });
    expect(first.events.map((e) => e.id)).toEqual([`${owner.id}-c`, `${owner.id}-b`]);
    const second = await events.listSecurityEvents(owner.id, { limit: 2, cursor: first.nextCursor });
    expect(second).toMatchObject({ events: [{ id: `${owner.id}-a` }], nextCursor: null });
    await expect(events.listSecurityEvents(userId, { cursor: first.nextCursor })).rejects.toMatchObject({ code: "INVALID_CURSOR", status: 400 });
    await expect(events.listSecurityEvents(owner.id, { cursor: `${first.nextCursor}x` })).rejects.toMatchObject({ code: "INVALID_CURSOR" });
  });

  it("a limit is a whole number from 1 to 100, 20 by default", () => {
    expect(events.parseLimit(undefined)).toBe(20);
    expect(events.parseLimit("1")).toBe(1);
    expect(events.parseLimit("100")).toBe(100);
    for (const bad of ["0", "101", "1e2", " 5", "abc", "-3", "2.0"]) expect(() => events.parseLimit(bad), bad).toThrow(expect.objectContaining({ code: "INVALID_LIMIT" }));
  });
});

describe("in words for people", () => {
  it("says what happened in one line", () => {
    expect(words.describeEvent("sign_in", { method: "passkey", twoFactor: false, newDevice: true })).toBe("Signed in with a passkey");
    expect(words.describeEvent("sign_in", { method: "social", provider: "github", providerName: "GitHub" })).toBe("Signed in with GitHub");
    expect(words.describeEvent("sign_in", { method: "password", signUp: true })).toBe("Account created and signed in with a password");
    expect(words.describeEvent("sign_in_failed", { method: "password" })).toBe("Wrong password entered");
    expect(words.describeEvent("sign_in_failed", { method: "two_factor" })).toBe("Wrong two-factor code entered");
    expect(words.describeEvent("email_changed", { from: "old@example.com", to: "new@example.com" })).toBe("Email address changed from old@example.com to new@example.com");
    expect(words.describeEvent("passkey_added", { name: "Laptop" })).toBe("Passkey “Laptop” added");
    expect(words.describeEvent("sessions_ended_by_owner", {})).toBe("Signed out everywhere (“This wasn't me”)");
    expect(words.describeEvent("password_reset_sent_by_admin", {})).toBe("Password reset link sent by an administrator");
    expect(words.describeEvent("application_authorized", { application: "Team Wiki", clientId: "c1", scopes: "openid email", trusted: false })).toBe("Access given to “Team Wiki”");
    expect(words.describeEvent("application_authorized", { application: "Portal", trusted: true })).toBe("Access given to “Portal” (a trusted application, which does not ask)");
    expect(words.describeEvent("application_tokens_issued", { application: "Team Wiki" })).toBe("Signed in to “Team Wiki” for the first time");
    expect(words.describeEvent("application_revoked", { application: "Team Wiki" })).toBe("Access for “Team Wiki” revoked");
  });

  it("serves the owner and the admin console from the same sentences, addressing only the owner as “you”", () => {
    expect(words.describeEvent("impersonation_started", {})).toBe("An administrator started acting as you");
    expect(words.describeEvent("impersonation_started", {}, "admin")).toBe("An administrator started acting as this account");
    expect(words.describeEvent("user_banned", {}, "admin")).toBe(words.describeEvent("user_banned", {}));
  });

  it("has its own sentence for every event type (none falls through to the generic one)", () => {
    for (const type of SECURITY_EVENT_TYPES) expect(words.describeEvent(type, {}), type).not.toBe("Account changed");
  });
});
