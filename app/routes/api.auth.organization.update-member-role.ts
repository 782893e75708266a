import { z } from "zod";
import { idField, roleField } from "~/auth/organization/schemas";
import { updateMemberRole } from "~/auth/organization/members.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: z.object({ memberId: idField, role: roleField, organizationId: idField.optional() }),
  handler: async ({ body, ctx }) => updateMemberRole(await requireSession(ctx), body, ctx),
});
