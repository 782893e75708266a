// The session cache's own rules: bounded, never serving an expired session, and each invalidation kind removing
// exactly the entries it names; and what a Prisma write's where-clause is taken to have changed (ADR 024).
import { describe, expect, it } from "vitest";
import { SessionCache, type CachedSession } from "~/auth/session/cache.server";
import { createSessionReader } from "~/auth/session/cache-reader.server";
import { ChangeFeed, decodeChange, encodeChange, type Transport, type TransportCallbacks } from "~/change-feed/feed.server";
import { changeFor } from "~/change-feed/prisma-hooks.server";
import { sqliteTransport } from "~/change-feed/transports.server";

const HOUR = 3_600_000;

function entry(token: string, userId: string, options: { sessionId?: string; organizationId?: string; expiresIn?: number } = {}): CachedSession {
  const now = new Date();
  return {
    session: {
      id: options.sessionId ?? `s-${token}`,
      userId,
      token,
      expiresAt: new Date(Date.now() + (options.expiresIn ?? HOUR)),
      createdAt: now,
      updatedAt: now,
      ipAddress: null,
      userAgent: null,
      rememberMe: true,
      activeOrganizationId: options.organizationId ?? null,
      activeTeamId: null,
      impersonatedBy: null, verifiedAt: null,
    },
    user: { id: userId, name: "N", email: `${userId}@example.com`, emailVerified: false, image: null, username: null, displayUsername: null, twoFactorEnabled: false, inboxProvenAt: null, role: "user", banned: false, banReason: null, banExpires: null, createdAt: now, updatedAt: now, credentialsVersion: 0, locale: null },
  };
}

describe("SessionCache", () => {
  it("keeps at most its size, dropping the least recently used", () => {
    const cache = new SessionCache(2, HOUR);
    cache.set(entry("a", "u1"));
    cache.set(entry("b", "u1"));
    expect(cache.get("a", Date.now() + 1_500)).not.toBeNull(); // a is now the most recent (moves at most once a second)
    cache.set(entry("c", "u2"));
    expect(cache.size).toBe(2);
    expect(cache.get("b")).toBeNull();
    expect(cache.get("a")).not.toBeNull();
    expect(cache.get("c")).not.toBeNull();
  });

  it("never serves an entry past its own age or a session past its expiry", () => {
    const cache = new SessionCache(10, 1_000);
    const now = Date.now();
    cache.set(entry("old", "u1"), now);
    expect(cache.get("old", now + 999)).not.toBeNull();
    expect(cache.get("old", now + 1_000)).toBeNull();
    cache.set(entry("expiring", "u1", { expiresIn: 500 }), now);
    expect(cache.get("expiring", now + 600)).toBeNull();
  });

  it("removes by token, session id, user id, organization id, or everything", () => {
    const cache = new SessionCache(10, HOUR);
    const fill = () => {
      cache.clear();
      cache.set(entry("t1", "u1", { sessionId: "s1", organizationId: "o1" }));
      cache.set(entry("t2", "u1", { sessionId: "s2" }));
      cache.set(entry("t3", "u2", { sessionId: "s3", organizationId: "o1" }));
      cache.set(entry("t4", "u3", { sessionId: "s4" }));
    };
    const left = () => ["t1", "t2", "t3", "t4"].filter((token) => cache.get(token));
    fill();
    cache.invalidate({ kind: "token", keys: ["t2"] });
    expect(left()).toEqual(["t1", "t3", "t4"]);
    fill();
    cache.invalidate({ kind: "session", keys: ["s3"] });
    expect(left()).toEqual(["t1", "t2", "t4"]);
    fill();
    cache.invalidate({ kind: "user", keys: ["u1"] });
    expect(left()).toEqual(["t3", "t4"]);
    fill();
    cache.invalidate({ kind: "organization", keys: ["o1"] });
    expect(left()).toEqual(["t2", "t4"]);
    fill();
    cache.invalidate({ kind: "all" });
    expect(left()).toEqual([]);
  });

  it("forgets a replaced entry's old indexes", () => {
    const cache = new SessionCache(10, HOUR);
    cache.set(entry("t1", "u1", { organizationId: "o1" }));
    cache.set(entry("t1", "u1", { organizationId: "o2" }));
    cache.invalidate({ kind: "organization", keys: ["o1"] });
    expect(cache.get("t1")).not.toBeNull();
    cache.invalidate({ kind: "organization", keys: ["o2"] });
    expect(cache.get("t1")).toBeNull();
  });
});

describe("changeFor (what a write may have changed)", () => {
  it.each([
    ["Session", { where: { token: "tok" } }, { kind: "token", keys: ["tok"] }],
    ["Session", { where: { token: "tok", userId: "u" } }, { kind: "token", keys: ["tok"] }],
    ["Session", { where: { id: "s1", userId: "u" } }, { kind: "session", keys: ["s1"] }],
    ["Session", { where: { id: { in: ["s1", "s2"] } } }, { kind: "session", keys: ["s1", "s2"] }],
    ["Session", { where: { userId: "u", id: { not: "s1" } } }, { kind: "user", keys: ["u"] }],
    ["Session", { where: { expiresAt: { lt: new Date() } } }, { kind: "all" }],
    ["User", { where: { id: "u", email: "a@example.com" } }, { kind: "user", keys: ["u"] }],
    ["User", { where: { email: "a@example.com" } }, { kind: "all" }],
    ["Organization", { where: { id: { in: ["o1"] } } }, { kind: "organization", keys: ["o1"] }],
    ["Organization", { where: { slug: "x" } }, { kind: "all" }],
    ["Member", { where: { id: "m" } }, null],
  ])("%s %j", (model, args, expected) => {
    expect(changeFor(model, args as never)).toEqual(expected);
  });
});

describe("the change feed", () => {
  it("counts every change, so a read that overlapped one does not cache", async () => {
    const feed = new ChangeFeed();
    const seen: unknown[] = [];
    feed.subscribe((change) => seen.push(change));
    const before = feed.generation;
    await feed.publish({ kind: "user", keys: ["u"] });
    expect(feed.generation).toBe(before + 1);
    expect(seen).toEqual([{ kind: "user", keys: ["u"] }]);
    expect(feed.connected).toBe(false); // no transport: nothing says other processes are heard
  });

  it("skips its own messages, reads others', and takes anything unreadable as everything", () => {
    const own = encodeChange({ kind: "token", keys: ["t"] });
    expect(decodeChange(own)).toBeNull();
    const other = JSON.stringify({ from: "elsewhere", kind: "token", keys: ["t", 3] });
    expect(decodeChange(other)).toEqual({ kind: "token", keys: ["t"] });
    expect(decodeChange("{not json")).toEqual({ kind: "all" });
    expect(decodeChange(JSON.stringify({ from: "elsewhere", kind: "drop tables" }))).toEqual({ kind: "all" });
    // Too large for a NOTIFY payload: announced as everything.
    const huge = encodeChange({ kind: "token", keys: Array.from({ length: 1000 }, (_, i) => `token-${i}`) });
    expect(JSON.parse(huge).kind).toBe("all");
  });
});

describe("reading through the cache", () => {
  /** A change feed on a transport the test drives, a cache, and a "database" that counts its reads. */
  function setup() {
    let callbacks: TransportCallbacks | undefined;
    const transport: Transport = { name: "test", start: (cb) => void (callbacks = cb), publish: async () => {} };
    const feed = new ChangeFeed();
    feed.use(transport);
    const cache = new SessionCache(10, HOUR);
    const rows = new Map([["t1", entry("t1", "u1")]]);
    let loads = 0;
    let duringLoad: (() => void) | undefined;
    const { read, peek } = createSessionReader(cache, feed, async (token) => {
      loads++;
      const row = rows.get(token) ?? null;
      const snapshot = row && { session: { ...row.session }, user: { ...row.user } };
      duringLoad?.();
      duringLoad = undefined;
      return snapshot;
    });
    feed.start();
    return {
      feed,
      rows,
      read,
      peek,
      loads: () => loads,
      connect: (value: boolean) => callbacks!.connected(value),
      deliver: (change: Parameters<TransportCallbacks["deliver"]>[0]) => callbacks!.deliver(change),
      whileLoading: (action: () => void) => void (duringLoad = action),
    };
  }

  it("serves a second read from memory once the change feed is connected", async () => {
    const t = setup();
    await t.read("t1");
    expect(t.loads()).toBe(1); // not connected yet: nothing cached
    t.connect(true);
    await t.read("t1");
    await t.read("t1");
    expect(t.loads()).toBe(2);
  });

  it("peeks synchronously at what may be trusted: nothing before a read has cached it, nor while disconnected", async () => {
    const t = setup();
    t.connect(true);
    expect(t.peek("t1")).toBeNull(); // never read: the caller must read
    await t.read("t1");
    expect(t.peek("t1")?.user.name).toBe("N");
    expect(t.loads()).toBe(1);
    t.deliver({ kind: "user", keys: ["u1"] });
    expect(t.peek("t1")).toBeNull(); // invalidated
    await t.read("t1");
    t.connect(false);
    expect(t.peek("t1")).toBeNull(); // changes elsewhere could be missed
  });

  it("does not cache a read that an invalidation overlapped (it may predate the write announced)", async () => {
    const t = setup();
    t.connect(true);
    t.whileLoading(() => {
      // Another process commits a new name and announces it while this read is in flight.
      t.rows.get("t1")!.user.name = "New";
      t.deliver({ kind: "user", keys: ["u1"] });
    });
    expect((await t.read("t1"))!.user.name).toBe("N"); // the read's own (old) snapshot, returned once
    expect((await t.read("t1"))!.user.name).toBe("New"); // not served from a stale cache
    expect(t.loads()).toBe(2);
  });

  it("stops serving and caching while disconnected, and starts from nothing when connected again", async () => {
    const t = setup();
    t.connect(true);
    await t.read("t1");
    t.connect(false);
    t.rows.get("t1")!.user.name = "Changed While Down";
    expect((await t.read("t1"))!.user.name).toBe("Changed While Down");
    await t.read("t1");
    expect(t.loads()).toBe(3);
    t.connect(true);
    await t.read("t1");
    await t.read("t1");
    expect(t.loads()).toBe(4);
  });

  it("hands out the cached objects frozen: every hit shares them, and no caller can change the cache", async () => {
    const t = setup();
    t.connect(true);
    const missed = await t.read("t1");
    const first = await t.read("t1");
    const second = await t.read("t1");
    expect(t.loads()).toBe(1);
    expect(first!.session).toBe(missed!.session);
    expect(second!.user).toBe(first!.user);
    expect(Object.isFrozen(first!.session) && Object.isFrozen(first!.user)).toBe(true);
    expect(() => {
      (first!.user as { name: string }).name = "Mutated";
    }).toThrow(TypeError);
    expect((await t.read("t1"))!.user.name).toBe("N");
  });

  it("makes new objects for a session read again after an invalidation", async () => {
    const t = setup();
    t.connect(true);
    const before = await t.read("t1");
    t.rows.get("t1")!.user.name = "Renamed";
    t.deliver({ kind: "user", keys: ["u1"] });
    const after = await t.read("t1");
    expect(after!.user).not.toBe(before!.user);
    expect(after!.user.name).toBe("Renamed");
  });
});

describe("the SQLite transport (another connection's commits)", () => {
  function fakeFile() {
    const state = { version: 1, checks: 0 };
    const connection = { prepare: () => ({ pluck: () => ({ get: () => (state.checks++, state.version) }) }) };
    return { state, connection };
  }

  it("asks SQLite at most once per interval, and empties everything when another connection committed", () => {
    const { state, connection } = fakeFile();
    let time = 0;
    const transport = sqliteTransport(":memory:", () => connection, { intervalMs: 1, now: () => time });
    const delivered: unknown[] = [];
    transport.start({ deliver: (change) => delivered.push(change), connected: () => {} });
    const checksAtStart = state.checks;

    transport.poll!();
    transport.poll!();
    time = 0.5;
    transport.poll!();
    expect(state.checks - checksAtStart).toBe(1); // the first poll only; the rest fell within the interval
    expect(delivered).toEqual([]);

    state.version = 2; // someone else commits
    time = 0.9;
    transport.poll!();
    expect(delivered).toEqual([]); // still within the interval: at most 1 ms stale
    time = 1.2;
    transport.poll!();
    expect(delivered).toEqual([{ kind: "all" }]);
    time = 5;
    transport.poll!();
    expect(delivered).toHaveLength(1); // nothing new committed
  });
});
