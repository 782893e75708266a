import { z } from "zod";
import { idField, slugField } from "~/auth/organization/schemas";
import { getFullOrganization } from "~/auth/organization/organizations.server";
import { pageLimitField } from "~/auth/schemas";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  // `membersLimit`: how many members come with it (Better Auth's default: the membership limit, 100).
  query: z.object({ organizationId: idField.optional(), organizationSlug: slugField.optional(), membersLimit: pageLimitField.optional() }),
  handler: async ({ query, ctx }) => getFullOrganization(await requireSession(ctx), query),
});
