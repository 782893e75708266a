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
