// POST /sso/verify-domain: 204 once every domain of the connection carries the TXT record.
import { providerIdBody } from "~/auth/sso/schemas";
import { verifyDomain } from "~/auth/sso/domains.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: providerIdBody,
  handler: async ({ body, ctx }) => {
    await verifyDomain(await requireSession(ctx), body.providerId, ctx);
    return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
  },
});
