import { verifyCodeBody } from "~/auth/two-factor/schemas";
import { verifyBackupCode } from "~/auth/two-factor/verify.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: verifyCodeBody,
  handler: ({ body, ctx }) => verifyBackupCode(ctx, body),
});
