// What the app adds to its request's log line: who is signed in (`userId`). The server hands every loader and
// action a note in the load context (server/observability/requests.mjs); the session code fills it in.
import type { AppLoadContext } from "@remix-run/node";

export interface RequestNote {
  /** The request's X-Request-Id, for lines written about it. */
  readonly requestId: string;
  userId: string | undefined;
}

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** Set by the server for every request (server/observability/requests.mjs); absent in unit tests. */
    requestNote?: RequestNote;
  }
}

/** Names the signed-in user on the request's line. */
export function noteUser(note: RequestNote | undefined, userId: string): void {
  if (note) note.userId = userId;
}

/** The fields that tie a line to its request. */
export function requestFields(context: AppLoadContext | undefined): { requestId?: string } {
  const requestId = context?.requestNote?.requestId;
  return requestId ? { requestId } : {};
}
