import { createUserBody } from "~/auth/admin/schemas";
import { createUser } from "~/auth/admin/users.server";
import { publicUser } from "~/auth/core/presenters.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: createUserBody,
  handler: async ({ body, ctx }) => ({ user: publicUser(await createUser(ctx, await requireSession(ctx), body)) }),
});
