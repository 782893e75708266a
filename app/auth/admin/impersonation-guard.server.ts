// What an impersonation session may not do (issue 30): change how the account signs in — password, e-mail,
// passkeys, two-factor, linked providers — or delete it, nor let an application in as the person (the OpenID
// provider's consent, ADR 051). One rule for the API and the pages: both name the
// work by its API path (a page intent by the bucket it shares with its JSON twin), and this decides.
import { AuthError } from "~/auth/errors";
import { sessionTokenFrom, type SessionWithUser } from "~/auth/session/sessions.server";
import { readSessionWithUser } from "~/auth/session/cached-read.server";
import type { RequestContext } from "~/auth/request-context.server";

const KEPT_FROM_IMPERSONATORS = ["/change-password", "/set-password", "/change-email", "/delete-user", "/link-social", "/unlink-account", "/oauth2/consent"];
const KEPT_PREFIXES = ["/two-factor/", "/passkey/", "/delete-user/"];
/** Passkey sign-in and sign-up need no session: nothing of an account to protect there. */
const PASSKEY_WITHOUT_SESSION = ["/passkey/generate-authenticate-options", "/passkey/verify-authentication", "/passkey/sign-up/"];

export function isKeptFromImpersonators(path: string): boolean {
  if (PASSKEY_WITHOUT_SESSION.some((open) => path.startsWith(open))) return false;
  return KEPT_FROM_IMPERSONATORS.includes(path) || KEPT_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/** For a page intent, which has the session already. */
export function refuseWhileImpersonating(path: string, current: SessionWithUser | null): void {
  if (current?.session.impersonatedBy && isKeptFromImpersonators(path)) throw new AuthError("NOT_ALLOWED_WHILE_IMPERSONATING");
}

/** For an API request, before its handler: looks at the session only on the paths above. */
export async function refuseImpersonatorAt(ctx: RequestContext, path: string): Promise<void> {
  if (!isKeptFromImpersonators(path)) return;
  const token = sessionTokenFrom(ctx.request);
  const found = token ? await readSessionWithUser(token) : null;
  if (found?.session.impersonatedBy) throw new AuthError("NOT_ALLOWED_WHILE_IMPERSONATING");
}
