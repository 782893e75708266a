import { sessionJwt } from "~/auth/oidc-provider/session-jwt.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  handler: async ({ ctx }) => ({ token: await sessionJwt(await requireSession(ctx)) }),
});
