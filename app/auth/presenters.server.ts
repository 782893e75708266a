// The wire shapes of users and sessions (Better Auth's field names). One place decides what leaves the server.
import type { Session, User } from "~/db.server";

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
  };
}

export type PublicUser = ReturnType<typeof publicUser>;
export type PublicSession = ReturnType<typeof publicSession>;

/**
 * A signed-in read as JSON carries it: the same fields, dates already as the ISO strings JSON.stringify would
 * make of them. Each Date's toJSON is a call out of JSON.stringify's fast path, a tenth of a cached
 * GET /get-session (ADR 023); the cookie cache holds this shape too, so both ways of answering agree.
 */
export function sessionWithUserOnTheWire(data: { session: Session; user: User }) {
  const { session, user } = data;
  return {
    session: {
      ...publicSession(session),
      expiresAt: session.expiresAt.toISOString(),
      createdAt: session.createdAt.toISOString(),
      updatedAt: session.updatedAt.toISOString(),
    },
    user: { ...publicUser(user), createdAt: user.createdAt.toISOString(), updatedAt: user.updatedAt.toISOString() },
  };
}

export type SessionWithUserOnTheWire = ReturnType<typeof sessionWithUserOnTheWire>;
