import { z } from "zod";
import { getPublicSession } from "~/auth/session/sessions.server";
import { endpoint, queryFlag } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  query: z.object({ disableCookieCache: queryFlag, disableRefresh: queryFlag }),
  handler: ({ query, ctx }) => getPublicSession(ctx, query),
});
