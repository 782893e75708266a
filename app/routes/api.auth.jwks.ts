import { publicKeySet } from "~/auth/oidc-provider/session-jwt.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  handler: () => publicKeySet(),
});
