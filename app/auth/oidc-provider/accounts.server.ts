// Who the provider may issue tokens for, and the claims it releases about them.
import type { User } from "~/db.server";
import { db } from "~/db.server";

/**
 * THE check before any code or token goes to an application: a deleted account (no row) gets none, and neither
 * does a banned one. Bans come from the admin work (Better Auth's admin plugin fields `banned` and `banExpires`);
 * until that column exists the ban half reads nothing. Every path — the interaction page, the token endpoint's
 * account lookup, userinfo — goes through here.
 */
export function mayReceiveTokens(user: User | null | undefined, now = new Date()): user is User {
  if (!user) return false;
  const ban = user as User & { banned?: boolean | null; banExpires?: Date | null };
  if (ban.banned === true && !(ban.banExpires && ban.banExpires.getTime() <= now.getTime())) return false;
  return true;
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
