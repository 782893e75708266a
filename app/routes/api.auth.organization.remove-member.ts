import { z } from "zod";
import { idField } from "~/auth/organization/schemas";
import { removeMember } from "~/auth/organization/members.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: z.object({ memberIdOrEmail: z.string().min(1).max(254), organizationId: idField.optional() }),
  handler: async ({ body, ctx }) => removeMember(await requireSession(ctx), body),
});
