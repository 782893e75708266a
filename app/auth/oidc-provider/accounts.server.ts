// Who the provider may issue tokens for, and the claims it releases about them.
import { isBanned } from "~/auth/admin/bans.server";
import type { User } from "~/db.server";
import { db } from "~/db.server";

/**
 * THE check before any code or token goes to an application: a deleted account (no row) gets none, and neither
 * does a banned one (the admin console's ban, read as every sign-in door reads it: `isBanned`, so a ban whose end
 * has passed no longer counts). Every path goes through here: the interaction page, and oidc-provider's account
 * lookup (`findAccount`) at the token endpoint — the code exchange and every refresh — and at userinfo. A ban
 * also ends what the provider holds for the person (ADR 051); this check covers anything a ban races with.
 */
export function mayReceiveTokens(user: User | null | undefined, now = Date.now()): user is User {
  return !!user && !isBanned(user, now);
}

/** The standard claims for a person: `sub` is the account id, which never changes. */
export function claimsOf(user: User) {
  return {
    sub: user.id,
    name: user.name,
    email: user.email,
    email_verified: user.emailVerified,
    ...(user.image ? { picture: user.image } : {}),
  };
}

/** oidc-provider's `findAccount`: the account, or undefined when it may not receive tokens (any more). */
export async function findAccount(sub: string) {
  if (typeof sub !== "string" || sub.length === 0) return undefined;
  const user = await db.user.findUnique({ where: { id: sub } });
  if (!mayReceiveTokens(user)) return undefined;
  return { accountId: user.id, claims: async () => claimsOf(user) };
}
