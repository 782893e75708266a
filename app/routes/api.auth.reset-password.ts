import { z } from "zod";
import { resetPassword } from "~/auth/account/password-flows.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: z.object({ newPassword: z.string(), token: z.string().optional() }),
  query: z.object({ token: z.string().optional() }),
  handler: ({ body, query, ctx }) => resetPassword(ctx, { newPassword: body.newPassword, token: body.token ?? query.token ?? "" }),
});
