// GET /sso/saml2/sp/metadata?providerId=: our service provider's metadata for a SAML connection (application/xml);
// 404 for an unknown one. Public, like any SP metadata: it names nothing secret.
import { AuthError } from "~/auth/errors";
import { providerIdQuery } from "~/auth/sso/schemas";
import { spMetadata } from "~/auth/sso/saml.server";
import { db } from "~/db.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  query: providerIdQuery,
  handler: async ({ query }) => {
    const provider = await db.ssoProvider.findUnique({ where: { providerId: query.providerId } });
    if (!provider?.samlConfig) throw new AuthError("PROVIDER_NOT_FOUND");
    return new Response(spMetadata(provider), { headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "no-store" } });
  },
});
