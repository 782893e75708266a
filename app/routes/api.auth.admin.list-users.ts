import { listUsersQuery } from "~/auth/admin/schemas";
import { listUsers } from "~/auth/admin/users.server";
import { publicUser } from "~/auth/core/presenters.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  query: listUsersQuery,
  handler: async ({ query, ctx }) => {
    const { users, total } = await listUsers(await requireSession(ctx), query);
    // Better Auth echoes the limit and offset asked for (undefined when not given).
    return { users: users.map(publicUser), total, limit: Number(query.limit) || undefined, offset: Number(query.offset) || undefined };
  },
});
