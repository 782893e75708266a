import { z } from "zod";
import { listSecurityEvents, parseLimit } from "~/auth/security-events/events.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  // Strings as typed: the domain refuses a bad limit or cursor with its own 400 (INVALID_LIMIT, INVALID_CURSOR).
  query: z.object({ limit: z.string().optional(), cursor: z.string().optional() }),
  handler: async ({ query, ctx }) => {
    const { user } = await requireSession(ctx);
    return listSecurityEvents(user.id, { limit: parseLimit(query.limit), cursor: query.cursor || null });
  },
});
