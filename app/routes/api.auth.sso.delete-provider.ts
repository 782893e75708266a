// POST /sso/delete-provider: {success: true}; the identities linked through it go with it.
import { providerIdBody } from "~/auth/sso/schemas";
import { deleteConnection } from "~/auth/sso/connections.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: providerIdBody,
  handler: async ({ body, ctx }) => deleteConnection(await requireSession(ctx), body.providerId, ctx),
});
