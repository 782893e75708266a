// What the SSO pages say about a refusal, in words for people: an `?error=` the IdP's return came back with, and
// the sign-in's own refusals. Browser-safe (no server imports).

const RETURN_PROBLEMS: Record<string, string> = {
  invalid_state: "That sign-in took too long or was started in another browser. Please start again.",
  invalid_provider: "Your organization's single sign-on is not available right now. Ask its administrator, or sign in another way.",
  access_denied: "Your organization's identity provider did not let you in. Ask its administrator if you should have access.",
  email_domain_mismatch:
    "Your identity provider gave an email address outside the domains your organization has proven, so you were not signed in. Ask your organization's administrator.",
  email_not_found: "Your identity provider did not share your email address, which an account needs. Ask your organization's administrator.",
  banned: "This account has been suspended. Contact support if you think this is a mistake.",
  invalid_id_token: "Your identity provider's answer could not be verified, so you were not signed in. Please try again.",
  token_exchange_failed: "We could not finish signing you in with your identity provider. Please try again.",
  no_code: "Your identity provider did not finish the sign-in. Please try again.",
};

/** The words for the return's `?error=`, or null when there is none. */
export function ssoReturnProblem(code: string | null): string | null {
  if (!code) return null;
  return Object.hasOwn(RETURN_PROBLEMS, code) ? RETURN_PROBLEMS[code] : "Signing in with your organization did not work. Please try again.";
}

/** The sign-in page's words for the start's refusals (by error code). */
export const SSO_START_WORDS: Record<string, string> = {
  NO_PROVIDER_FOUND_FOR_THE_ISSUER: "There is no single sign-on for that email address. Sign in with your password or another way instead.",
  PROVIDER_DOMAIN_HAS_NOT_BEEN_VERIFIED:
    "Single sign-on for that email address is not ready yet: the organization has not proven its domain. Ask its administrator, or sign in another way.",
};
