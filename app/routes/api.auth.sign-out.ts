import { signOut } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  handler: async ({ ctx }) => {
    await signOut(ctx);
    return { success: true };
  },
});
