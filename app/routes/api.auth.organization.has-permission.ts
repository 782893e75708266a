import { z } from "zod";
import { idField, permissionsField } from "~/auth/organization/schemas";
import { hasPermission } from "~/auth/organization/members.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

// `permission` is the older spelling Better Auth clients still send.
export const { loader, action } = endpoint({
  method: "POST",
  body: z
    .object({ permissions: permissionsField.optional(), permission: permissionsField.optional(), organizationId: idField.optional() })
    .refine((b) => b.permissions || b.permission, { message: "permissions is required", path: ["permissions"] }),
  handler: async ({ body, ctx }) =>
    hasPermission(await requireSession(ctx), { permissions: (body.permissions ?? body.permission)!, organizationId: body.organizationId }),
});
