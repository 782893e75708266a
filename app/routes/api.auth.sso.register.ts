// POST /sso/register: an organization's owner or admin adds an OIDC connection (discovered and checked now).
import { registerBody } from "~/auth/sso/schemas";
import { registerConnection } from "~/auth/sso/connections.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: registerBody,
  handler: async ({ body, ctx }) => registerConnection(await requireSession(ctx), body, ctx),
});
