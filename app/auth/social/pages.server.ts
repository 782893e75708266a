// What the sign-in, sign-up and account pages need from social sign-in, worded for people.
import { enabledProviders } from "~/auth/social/providers.server";
import { db } from "~/db.server";

/** The ?error= codes a provider's return can bring back to the sign-in page, in words. */
const EXPLANATIONS: Record<string, string> = {
  access_denied: "You cancelled the sign-in at the provider. Nothing was changed.",
  state_not_found: "That sign-in link was already used. Please start again.",
  state_mismatch: "That sign-in was started in another browser. Please start again here.",
  please_restart_the_process: "That sign-in took too long. Please start again.",
  no_code: "The provider did not finish the sign-in. Please try again.",
  invalid_code: "The provider did not accept the sign-in. Please try again.",
  invalid_token: "The provider's answer could not be verified. Please try again.",
  unable_to_get_user_info: "We could not read your profile from the provider. Please try again later.",
  email_not_found: "The provider did not share an email address, which an account needs.",
  "account not linked":
    "An account with this email already exists. Sign in with your password, then link the provider from your account's Linked accounts page.",
  account_already_linked: "You already linked an account of this provider.",
  account_already_linked_to_different_user: "That provider account is already linked to another user.",
  "email_doesn't_match": "That provider account uses a different email address than yours.",
  unable_to_link_account: "We could not link that account. Please try again.",
  "unable to create user": "We could not create your account. Please try again.",
  oauth_provider_not_found: "That provider is not available.",
  too_many_requests: "Too many attempts. Try again in a minute.",
};

export function socialErrorMessage(code: string | null): string | null {
  if (!code) return null;
  return EXPLANATIONS[code] ?? "Signing in with the provider did not work. Please try again.";
}

export function socialSignInOptions(request: Request) {
  const error = new URL(request.url).searchParams.get("error");
  return { providers: enabledProviders(), error: socialErrorMessage(error) };
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
