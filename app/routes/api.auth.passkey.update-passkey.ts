import { renamePasskey } from "~/auth/passkey/passkeys.server";
import { updatePasskeyBody } from "~/auth/passkey/schemas";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: updatePasskeyBody,
  handler: async ({ body, ctx }) => renamePasskey((await requireSession(ctx)).user.id, body),
});
