// Shared by the passkey components: errors in words for people (the JSON API keeps the specification's
// messages), and where to go once a script has signed someone in.
import type { ClientError } from "~/client";

export function describePasskeyError(error: ClientError): string {
  switch (error.code) {
    case "AUTH_CANCELLED":
      return "Signing in with a passkey was cancelled or did not work. Try again, or use your password.";
    case "REGISTRATION_CANCELLED":
      return "Creating the passkey was cancelled or did not work. Try again.";
    case "PREVIOUSLY_REGISTERED":
      return "This passkey is already registered.";
    case "CHALLENGE_NOT_FOUND":
      return "That took too long or was started in another tab. Try again.";
    case "INVALID_CODE":
      return "That code is not right, or it has expired. Check the email, or ask for a new code.";
    case "USER_ALREADY_EXISTS":
      return "This address already has an account. Sign in instead.";
    case "TOO_MANY_REQUESTS":
      return "Too many attempts. Wait a moment and try again.";
    case "NETWORK_ERROR":
      return "We could not reach the server. Check your connection and try again.";
    default:
      return error.message && error.source === "server" ? error.message : "Something went wrong with the passkey. Try again.";
  }
}

/** After a script signed someone in: GET /continue judges the redirect target on the server. */
export const continueTo = (target: string | null | undefined) => `/continue${target ? `?to=${encodeURIComponent(target)}` : ""}`;
