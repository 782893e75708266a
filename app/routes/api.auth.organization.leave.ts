import { z } from "zod";
import { idField } from "~/auth/organization/schemas";
import { leaveOrganization } from "~/auth/organization/members.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: z.object({ organizationId: idField }),
  handler: async ({ body, ctx }) => leaveOrganization(await requireSession(ctx), body.organizationId),
});
