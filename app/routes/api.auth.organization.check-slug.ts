import { z } from "zod";
import { slugField } from "~/auth/organization/schemas";
import { checkSlug } from "~/auth/organization/organizations.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: z.object({ slug: slugField }),
  handler: async ({ body, ctx }) => {
    await requireSession(ctx);
    return checkSlug(body.slug);
  },
});
