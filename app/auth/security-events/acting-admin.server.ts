// Who acts in a request made with an admin's impersonation session (issue 38): every security event written for
// the impersonated account during such a request names the admin as its actor (record.server.ts), whatever wrote
// it, so a new kind of event cannot forget to. The request's session is noted by the impersonation guard before
// the handler runs — before any transaction that could end that session, which a read inside the transaction
// would no longer see (a sign-out deletes the row, then records `sign_out`). This module holds the notes only: it
// imports nothing, so the recorder, which the session code imports, can ask it without a circle.

/** The request's session, as far as who acts: its account, and the admin acting as it (null when none). */
export interface RequestSession {
  userId: string;
  impersonatedBy: string | null;
}

type Read = () => Promise<RequestSession | null>;

const noted = new WeakMap<Request, Read>();

/**
 * Notes the request's session: as read already, or as a read to make only if an event asks (a GET, whose
 * handler ends no session before it records).
 */
export function noteRequestSession(request: Request, session: RequestSession | null | Read): void {
  if (typeof session !== "function") {
    const known = Promise.resolve(session);
    noted.set(request, () => known);
    return;
  }
  let once: Promise<RequestSession | null> | undefined;
  noted.set(request, () => (once ??= session()));
}

/** The admin acting as `userId` in this request, or null (no request, not noted, not impersonated, another account). */
export async function actingAdminFor(request: Request | undefined, userId: string): Promise<string | null> {
  const read = request && noted.get(request);
  if (!read) return null;
  const session = await read();
  return session?.impersonatedBy && session.userId === userId ? session.impersonatedBy : null;
}
