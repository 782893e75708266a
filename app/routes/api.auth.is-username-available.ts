import { z } from "zod";
import { isUsernameAvailable } from "~/auth/username/username.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: z.object({ username: z.string().max(200) }),
  handler: ({ body }) => isUsernameAvailable(body.username),
});
