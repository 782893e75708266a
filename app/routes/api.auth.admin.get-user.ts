import { z } from "zod";
import { userIdField } from "~/auth/admin/schemas";
import { getUser } from "~/auth/admin/users.server";
import { publicUser } from "~/auth/core/presenters.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  query: z.object({ id: userIdField }),
  handler: async ({ query, ctx }) => publicUser(await getUser(await requireSession(ctx), query.id)),
});
