// The sign-in page's one "Email or username" field: an "@" makes it an e-mail address, anything else a username.
import { signInWithEmail } from "~/auth/sign-in/credentials.server";
import type { RequestContext } from "~/auth/request-context.server";
import { signInWithUsername } from "~/auth/username/username.server";

export async function signInWithIdentifier(
  ctx: RequestContext,
  input: { identifier: string; password: string; rememberMe?: boolean; callbackURL?: string },
) {
  const { identifier, ...rest } = input;
  if (identifier.includes("@")) return signInWithEmail(ctx, { email: identifier, ...rest });
  return signInWithUsername(ctx, { username: identifier, ...rest });
}

/** Where a page sends a sign-in that still needs its second factor. */
export function twoFactorPage(redirectTo: string | undefined): string {
  return `/two-factor${redirectTo ? `?${new URLSearchParams({ redirectTo })}` : ""}`;
}
