// What each scope lets an application do, in words for the consent and applications pages.
const WORDS: Record<string, string> = {
  openid: "Know it's you when you sign in",
  profile: "See your name and profile picture",
  email: "See your email address",
  offline_access: "Stay signed in, even while you're away",
};

/** The sentences for a list of scopes, in a fixed order; scopes with no words (none are allowed) are left out. */
export function describeScopes(scopes: Iterable<string>): string[] {
  const asked = new Set(scopes);
  return Object.keys(WORDS).filter((scope) => asked.has(scope)).map((scope) => WORDS[scope]!);
}
