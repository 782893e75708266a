import { userIdBody } from "~/auth/admin/schemas";
import { listUserSessions } from "~/auth/admin/users.server";
import { publicSession } from "~/auth/core/presenters.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: userIdBody,
  handler: async ({ body, ctx }) => ({ sessions: (await listUserSessions(await requireSession(ctx), body.userId)).map(publicSession) }),
});
