import { deletePasskey } from "~/auth/passkey/passkeys.server";
import { deletePasskeyBody } from "~/auth/passkey/schemas";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: deletePasskeyBody,
  handler: async ({ body, ctx }) => deletePasskey(ctx, await requireSession(ctx), body),
});
