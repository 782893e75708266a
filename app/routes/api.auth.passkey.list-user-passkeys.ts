import { listPasskeys, publicPasskey } from "~/auth/passkey/passkeys.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  handler: async ({ ctx }) => (await listPasskeys((await requireSession(ctx)).user.id)).map(publicPasskey),
});
