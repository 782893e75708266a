// POST /sso/update-provider: a partial change of a connection → the sanitized connection.
import { updateBody } from "~/auth/sso/schemas";
import { updateConnection } from "~/auth/sso/update.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: updateBody,
  handler: async ({ body, ctx }) => updateConnection(await requireSession(ctx), body),
});
