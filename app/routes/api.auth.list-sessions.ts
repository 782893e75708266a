import { publicSession } from "~/auth/core/presenters.server";
import { pageQuery } from "~/auth/schemas";
import { listSessions } from "~/auth/session/own-sessions.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  // The 100 most recently used without `limit` (Better Auth's bound); `limit`/`offset` page further.
  query: pageQuery,
  handler: async ({ query, ctx }) => {
    const { user } = await requireSession(ctx);
    return (await listSessions(user.id, query)).map(publicSession);
  },
});
