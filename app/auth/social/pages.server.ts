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
