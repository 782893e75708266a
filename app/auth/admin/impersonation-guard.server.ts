// What an impersonation session may not do (issue 30): change how the account signs in — password, e-mail,
// passkeys, two-factor, linked providers, username — or delete it, nor let an application in as the person (the
// OpenID provider's consent, ADR 051), nor press "This wasn't me" in the owner's name (issue 38). One rule for the
// API and the pages: both name the work by its API path (a page intent by the bucket it shares with its JSON
// twin), and this decides. It also notes who acts in the request, for the security events it writes.
import { AuthError } from "~/auth/errors";
import { sessionTokenFrom, type SessionWithUser } from "~/auth/session/sessions.server";
import { readSessionWithUser } from "~/auth/session/cached-read.server";
import type { RequestContext } from "~/auth/request-context.server";
import { noteRequestSession, type RequestSession } from "~/auth/security-events/acting-admin.server";

const KEPT_FROM_IMPERSONATORS = [
  "/change-password",
  "/set-password",
  "/change-email",
  "/delete-user",
  "/link-social",
  "/unlink-account",
  "/oauth2/consent",
  // The owner's alarm: pressed by an admin it would say the owner did it and mail the owner a reset link.
  "/end-all-sessions",
  // Changes the username, which is a way in; name and picture go with it (ADR 050, 2026-12-02).
  "/update-user",
];
// "/reverify/": an admin cannot confirm it's the person (and must not mail them codes in their name).
const KEPT_PREFIXES = ["/two-factor/", "/passkey/", "/delete-user/", "/reverify/"];
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

const asRequestSession = (found: { session: { userId: string; impersonatedBy: string | null } } | null): RequestSession | null =>
  found && { userId: found.session.userId, impersonatedBy: found.session.impersonatedBy };

/**
 * Notes whose session the request carries, for its security events (acting-admin.server.ts): the session given,
 * else the cookie's, read now — before the work, which may end that session before it records — or, with
 * `lazily`, only if an event asks. Returns what was read now (undefined when nothing was).
 */
export async function noteWhoActs(ctx: RequestContext, options: { current?: SessionWithUser | null; lazily?: boolean } = {}): Promise<RequestSession | null | undefined> {
  if (options.current) {
    noteRequestSession(ctx.request, asRequestSession(options.current));
    return undefined;
  }
  const token = sessionTokenFrom(ctx.request);
  if (!token) return null;
  const read = async () => asRequestSession(await readSessionWithUser(token));
  if (options.lazily) {
    noteRequestSession(ctx.request, read);
    return undefined;
  }
  const found = await read();
  noteRequestSession(ctx.request, found);
  return found;
}

/**
 * For an API request, before its handler. A request that only reads (GET, HEAD) off the paths above costs no
 * session read here; one that changes something reads it (through the session cache) so its events name who acts.
 */
export async function refuseImpersonatorAt(ctx: RequestContext, path: string): Promise<void> {
  const kept = isKeptFromImpersonators(path);
  const reads = ctx.request.method === "GET" || ctx.request.method === "HEAD";
  const found = await noteWhoActs(ctx, { lazily: reads && !kept });
  if (kept && found?.impersonatedBy) throw new AuthError("NOT_ALLOWED_WHILE_IMPERSONATING");
}
