// GET /api/auth/error: where failed browser flows (social callbacks, bad links) land.
import { z } from "zod";
import { endpoint } from "~/http/endpoint.server";
import { renderErrorPage } from "~/http/error-page.server";

export const { loader, action } = endpoint({
  method: "GET",
  query: z.object({ error: z.string().optional() }),
  handler: async ({ query, ctx }) => renderErrorPage(query.error?.slice(0, 200), ctx.request),
});
