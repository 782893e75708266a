// GET /sso/providers: {providers} — the connections of organizations where the caller is an owner or admin.
import { z } from "zod";
import { idField } from "~/auth/organization/schemas";
import { listConnections } from "~/auth/sso/connections.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  query: z.object({ organizationId: idField.optional() }),
  handler: async ({ query, ctx }) => listConnections(await requireSession(ctx), query.organizationId),
});
