// The JSON text made once for an unchanging answer, and get-session's presentation made once per cached pair.
import { describe, expect, it } from "vitest";
import { sessionWithUserOnTheWire } from "~/auth/core/presenters.server";
import { jsonText, unchanging } from "~/auth/core/json-text.server";

function pair(name = "N") {
  const at = new Date("2026-11-25T10:00:00.123Z");
  return {
    session: { id: "s1", token: "t1", userId: "u1", expiresAt: at, createdAt: at, updatedAt: at, ipAddress: null, userAgent: null, rememberMe: true, activeOrganizationId: null, activeTeamId: null, impersonatedBy: null, verifiedAt: null },
    user: { id: "u1", name, email: "u1@example.com", emailVerified: false, image: null, username: null, displayUsername: null, twoFactorEnabled: false, inboxProvenAt: null, role: "user", banned: false, banReason: null, banExpires: null, createdAt: at, updatedAt: at, credentialsVersion: 0, locale: null },
  };
}

describe("jsonText", () => {
  it("serializes what it was not told is unchanging every time", () => {
    const value = { a: 1 };
    expect(jsonText(value)).toBe('{"a":1}');
    value.a = 2;
    expect(jsonText(value)).toBe('{"a":2}');
    expect(jsonText(undefined)).toBe("null");
  });

  it("serializes an unchanging value once, and answers the same text after", () => {
    let serialized = 0;
    const value = unchanging(Object.freeze({ toJSON: () => (serialized++, { a: 1, nested: { b: "x" } }) }));
    expect(jsonText(value)).toBe('{"a":1,"nested":{"b":"x"}}');
    expect(jsonText(value)).toBe('{"a":1,"nested":{"b":"x"}}');
    expect(serialized).toBe(1);
  });
});

describe("sessionWithUserOnTheWire", () => {
  it("writes dates as JSON would, with the public fields only", () => {
    const { session, user } = pair();
    const wire = sessionWithUserOnTheWire({ session, user });
    expect(wire.session.expiresAt).toBe("2026-11-25T10:00:00.123Z");
    expect(wire.user.createdAt).toBe("2026-11-25T10:00:00.123Z");
    expect(wire.session).not.toHaveProperty("rememberMe");
    expect(JSON.stringify(wire)).toBe(JSON.stringify({ session: { ...wire.session }, user: { ...wire.user } }));
  });

  it("is made once for the cache's frozen objects, and again for another user object", () => {
    const { session, user } = pair();
    Object.freeze(session);
    Object.freeze(user);
    const first = sessionWithUserOnTheWire({ session, user });
    expect(sessionWithUserOnTheWire({ session, user })).toBe(first);
    const renamed = Object.freeze({ ...user, name: "Renamed" });
    const again = sessionWithUserOnTheWire({ session, user: renamed });
    expect(again).not.toBe(first);
    expect(again.user.name).toBe("Renamed");
    expect(jsonText(again)).toContain('"name":"Renamed"');
  });

  it("is made afresh for objects that may still change (a refresh, the cache turned off)", () => {
    const data = pair();
    const first = sessionWithUserOnTheWire(data);
    data.user.name = "Changed";
    expect(sessionWithUserOnTheWire(data).user.name).toBe("Changed");
    expect(first.user.name).toBe("N");
    // A frozen session with a user that can still change is not remembered either.
    const mixed = { session: Object.freeze(pair().session), user: pair().user };
    sessionWithUserOnTheWire(mixed);
    mixed.user.name = "Changed Too";
    expect(sessionWithUserOnTheWire(mixed).user.name).toBe("Changed Too");
  });
});
