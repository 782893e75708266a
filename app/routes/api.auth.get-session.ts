import { z } from "zod";
import { getPublicSession, publicSessionFromMemory } from "~/auth/session/sessions.server";
import { endpoint, queryFlag } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  query: z.object({ disableCookieCache: queryFlag, disableRefresh: queryFlag }),
  handler: ({ query, ctx }) => getPublicSession(ctx, query),
  // The signed-in read most traffic is: answered before a Request is made when the session cache has it (ADR 054).
  fromMemory: ({ query, cookieHeader }) => publicSessionFromMemory(cookieHeader, query),
});
