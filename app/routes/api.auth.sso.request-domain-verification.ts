// POST /sso/request-domain-verification: 201 {domainVerificationToken} (the live one while it lasts).
import { providerIdBody } from "~/auth/sso/schemas";
import { requestDomainVerification } from "~/auth/sso/domains.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint, json } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: providerIdBody,
  handler: async ({ body, ctx }) => json(await requestDomainVerification(await requireSession(ctx), body.providerId), { status: 201 }),
});
