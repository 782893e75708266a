// What the sign-in, sign-up and account pages need from social sign-in (its words are in the page-messages catalogue).
import { enabledProviders } from "~/auth/social/providers/registry.server";
import { db } from "~/db.server";
import { socialSignInProblem } from "~/http/page-messages.server";

export function socialSignInOptions(request: Request) {
  const error = new URL(request.url).searchParams.get("error");
  return { providers: enabledProviders(), error: socialSignInProblem(error) };
}

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
