// What the account pages need from social sign-in. The sign-in and sign-up pages' options, with their words, are
// the page layer's (socialSignInOptions in app/http/page-messages.server.ts): app/auth imports no app/http (ADR 033).
import { enabledProviders } from "~/auth/social/providers/registry.server";
import { db } from "~/db.server";

/** The account's "Linked accounts": every enabled provider, linked or not, and the password as "Password". */
export async function linkedAccountsOf(userId: string) {
  const accounts = await db.account.findMany({ where: { userId }, select: { providerId: true, accountId: true, password: true, createdAt: true } });
  const hasPassword = accounts.some((a) => a.providerId === "credential" && a.password);
  return {
    hasPassword,
    providers: enabledProviders().map((provider) => ({
      ...provider,
      linked: accounts.some((a) => a.providerId === provider.id),
    })),
  };
}

/** How long after a provider's account was linked its page may still confirm it (the way back from the provider). */
export const LINKED_NOTICE_WINDOW_MS = 5 * 60 * 1000;

/**
 * Whether `providerId` was linked to the user within the last few minutes: the way back from linking says
 * "linked" only when a link really happened, not because the address carries `?linked=`.
 */
export async function linkedJustNow(userId: string, providerId: string, now: Date = new Date()): Promise<boolean> {
  const account = await db.account.findFirst({ where: { userId, providerId }, select: { createdAt: true } });
  return account !== null && now.getTime() - account.createdAt.getTime() <= LINKED_NOTICE_WINDOW_MS;
}
