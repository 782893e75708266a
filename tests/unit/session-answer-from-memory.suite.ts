// GET /get-session answered from memory (ADR 054): the production dispatch asks the route's `fromMemory` before it
// builds any Request, and writes what it gets. It must answer only when the handler would answer the very same
// text with nothing to write and no cookie to set, and leave every other case to the handler.
// Run once per database by session-answer-from-memory.sqlite.test.ts and .postgres.test.ts.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DatabaseKind } from "../support/database";
import { openDomain, type DomainHandle } from "../support/domain";

const PATH = "/api/auth/get-session";

export function sessionAnswerFromMemorySuite(kind: DatabaseKind) {
  let domain: DomainHandle;
  let route: typeof import("~/routes/api.auth.get-session");
  let sign: typeof import("~/auth/core/crypto.server").sign;
  let cookieName: string;
  let env: typeof import("~/env.server").env;

  beforeAll(async () => {
    domain = await openDomain(kind);
    route = await import("~/routes/api.auth.get-session");
    ({ sign } = await import("~/auth/core/crypto.server"));
    cookieName = (await import("~/auth/session/sessions.server")).COOKIE_NAMES.sessionToken;
    ({ env } = await import("~/env.server"));
    // The cache keeps nothing until the feed is known to deliver (PostgreSQL's LISTEN connects in the background).
    const { changeFeed } = await import("~/change-feed/feed.server");
    changeFeed.start();
    for (const deadline = Date.now() + 10_000; !changeFeed.connected; ) {
      if (Date.now() > deadline) throw new Error("the change feed did not connect within 10 s");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  afterAll(async () => {
    await domain?.close();
  });

  let serial = 0;
  /** A user and a session ending `expiresInMs` from now (by default as a new one does); its Cookie header. */
  async function signedIn(expiresInMs = env.AUTH_SESSION_EXPIRES_IN * 1000, rememberMe = true) {
    serial += 1;
    const user = await domain.db.user.create({ data: { name: "Memory", email: `memory-${serial}-${Date.now()}@example.com`, emailVerified: true } });
    const token = `memory-token-${serial}-${Date.now()}`;
    const session = await domain.db.session.create({ data: { userId: user.id, token, rememberMe, expiresAt: new Date(Date.now() + expiresInMs) } });
    return { user, session, cookie: `${cookieName}=${encodeURIComponent(sign(token, "session"))}; other=1` };
  }

  const fromMemory = (cookie: string | undefined, search = "") => route.loader.fromMemory!(PATH, search, cookie);

  /** The handler's answer, as the dispatch would have written it. */
  async function handled(cookie: string | undefined, search = "") {
    const response = await route.loader({
      request: new Request(`http://localhost:3000${PATH}${search}`, { headers: cookie ? { cookie } : {} }),
      context: { clientIp: "203.0.113.1" },
      params: {},
    });
    return { status: response.status, headers: [...response.headers], text: await response.text() };
  }

  it("answers only once the session is in the cache, with exactly the handler's text, status and headers", async () => {
    const { cookie, user } = await signedIn();
    expect(fromMemory(cookie)).toBeNull(); // not read yet: the handler reads it (and caches it)
    const first = await handled(cookie);
    expect(first.status).toBe(200);
    expect(JSON.parse(first.text).user.email).toBe(user.email);
    const remembered = fromMemory(cookie);
    expect(remembered).toBe(first.text);
    // What the dispatch sends with it: the JSON headers, and nothing the handler would have added.
    expect(first.headers).toEqual([
      ["cache-control", "no-store"],
      ["content-type", "application/json; charset=utf-8"],
    ]);
    // Better Auth's refetch query reads the same.
    expect(fromMemory(cookie, "?disableCookieCache=true")).toBe(first.text);
  });

  it("leaves a query the handler refuses to the handler", async () => {
    const { cookie } = await signedIn();
    await handled(cookie);
    expect(fromMemory(cookie, "?disableRefresh=maybe")).toBeNull();
    expect((await handled(cookie, "?disableRefresh=maybe")).status).toBe(400);
  });

  it("has nothing for a missing, forged or unknown cookie", async () => {
    const { cookie } = await signedIn();
    await handled(cookie);
    expect(fromMemory(undefined)).toBeNull();
    expect(fromMemory(cookie.replace(/%2E|\./, "x"))).toBeNull();
    expect(fromMemory(`${cookieName}=${encodeURIComponent(sign("no-such-token", "session"))}`)).toBeNull();
  });

  it("stops answering the moment the session is ended (the change feed empties the cache)", async () => {
    const { cookie, session } = await signedIn();
    await handled(cookie);
    expect(fromMemory(cookie)).not.toBeNull();
    await domain.db.session.delete({ where: { id: session.id } });
    expect(fromMemory(cookie)).toBeNull();
    expect((await handled(cookie)).text).toBe("null");
  });

  it("leaves a session due for extension to the handler, which extends it and sets its cookie; disableRefresh may be answered", async () => {
    // Past the update age: the next read extends it.
    const dueIn = (env.AUTH_SESSION_EXPIRES_IN - env.AUTH_SESSION_UPDATE_AGE - 60) * 1000;
    const { cookie, session } = await signedIn(dueIn);
    const withoutRefresh = await handled(cookie, "?disableRefresh=true");
    expect(withoutRefresh.headers.some(([name]) => name === "set-cookie")).toBe(false);
    expect(fromMemory(cookie, "?disableRefresh=true")).toBe(withoutRefresh.text);
    expect(fromMemory(cookie)).toBeNull();
    const extended = await handled(cookie);
    expect(extended.headers.some(([name]) => name === "set-cookie")).toBe(true);
    const stored = await domain.db.session.findUniqueOrThrow({ where: { id: session.id } });
    expect(stored.expiresAt.getTime()).toBeGreaterThan(session.expiresAt.getTime());
  });

  it("never answers for a session that has expired since it was cached", async () => {
    // Not remembered: never due for extension. The clock is moved past the session's end rather than waited for, so
    // no step before it can run out of time on a busy machine.
    const { cookie, session } = await signedIn(60_000, false);
    await handled(cookie);
    expect(fromMemory(cookie)).not.toBeNull();
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(session.expiresAt.getTime() + 1);
      expect(fromMemory(cookie)).toBeNull();
      expect((await handled(cookie)).text).toBe("null");
    } finally {
      vi.useRealTimers();
    }
  });

  it("is offered on GET alone, and never on a rate-limited or impersonation-guarded path", async () => {
    const { endpoint } = await import("~/http/endpoint.server");
    expect(() => endpoint({ method: "POST", handler: async () => ({}), fromMemory: () => ({}) })).toThrow(TypeError);
    const always = endpoint({ method: "GET", handler: async () => ({ from: "handler" }), fromMemory: () => ({ from: "memory" }) });
    expect(always.loader.fromMemory!("/api/auth/ok", "", undefined)).toBe('{"from":"memory"}');
    expect(always.loader.fromMemory!("/api/auth/list-sessions", "", undefined)).toBeNull(); // counted by the limiter
    expect(always.loader.fromMemory!("/api/auth/delete-user/callback", "", undefined)).toBeNull(); // limited and guarded
    const failing = endpoint({
      method: "GET",
      handler: async () => ({}),
      fromMemory: () => {
        throw new Error("left to the handler");
      },
    });
    expect(failing.loader.fromMemory!("/api/auth/ok", "", undefined)).toBeNull();
    expect(endpoint({ method: "GET", handler: async () => ({}) }).loader.fromMemory).toBeUndefined();
  });
}
