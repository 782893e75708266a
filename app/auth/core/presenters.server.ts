// The wire shapes of users and sessions (Better Auth's field names). One place decides what leaves the server.
import type { Session, User } from "~/db.server";
import { unchanging } from "~/auth/core/json-text.server";

export function publicUser(user: User) {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    emailVerified: user.emailVerified,
    image: user.image,
    username: user.username,
    displayUsername: user.displayUsername,
    twoFactorEnabled: user.twoFactorEnabled,
    // The admin plugin's fields, which Better Auth adds to every user it answers with (ADR 049).
    role: user.role,
    banned: user.banned,
    banReason: user.banReason,
    banExpires: user.banExpires,
    // Better Auth's userLocaleField (the i18n plugin): the account's language, null when unset (issue 44).
    locale: user.locale ?? null,
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
  };
}

export function publicSession(session: Session) {
  return {
    id: session.id,
    token: session.token,
    userId: session.userId,
    expiresAt: session.expiresAt,
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
    ipAddress: session.ipAddress,
    userAgent: session.userAgent,
    activeOrganizationId: session.activeOrganizationId,
    // Better Auth's teams field (issue 42): null when no team is active.
    activeTeamId: session.activeTeamId ?? null,
    impersonatedBy: session.impersonatedBy,
  };
}

export type PublicUser = ReturnType<typeof publicUser>;
export type PublicSession = ReturnType<typeof publicSession>;

/** The wire form of each session object a read handed out, with the user it was made with: see below. */
const presented = new WeakMap<object, { user: object; wire: SessionWithUserOnTheWire }>();

/**
 * A signed-in read as JSON carries it: the same fields, dates already as the ISO strings JSON.stringify would
 * make of them. Each Date's toJSON is a call out of JSON.stringify's fast path, and making this object was a
 * sixth of a cached GET /get-session (ADR 023), so it is made once per pair of objects, and its JSON text
 * once too (json-text.server.ts): the session cache hands out the same frozen objects until a write replaces
 * them (both must be frozen for the memo to apply: a refresh or AUTH_SESSION_CACHE=off makes fresh objects).
 * The cookie cache holds this shape too, so both ways of answering agree.
 */
export function sessionWithUserOnTheWire(data: { readonly session: Readonly<Session>; readonly user: Readonly<User> }): SessionWithUserOnTheWire {
  const { session, user } = data;
  const shared = Object.isFrozen(session) && Object.isFrozen(user);
  const known = shared ? presented.get(session) : undefined;
  if (known?.user === user) return known.wire;
  const wire = Object.freeze({
    session: Object.freeze({
      ...publicSession(session),
      expiresAt: session.expiresAt.toISOString(),
      createdAt: session.createdAt.toISOString(),
      updatedAt: session.updatedAt.toISOString(),
    }),
    user: Object.freeze({
      ...publicUser(user),
      banExpires: user.banExpires ? user.banExpires.toISOString() : null,
      createdAt: user.createdAt.toISOString(),
      updatedAt: user.updatedAt.toISOString(),
    }),
  });
  if (shared) presented.set(session, { user, wire: unchanging(wire) });
  return wire;
}

type Wired<T> = { readonly [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K] };
export interface SessionWithUserOnTheWire {
  readonly session: Wired<PublicSession>;
  readonly user: Wired<PublicUser>;
}
