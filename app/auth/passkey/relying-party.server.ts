// Who the passkeys belong to: the relying party from configuration (AUTH_PASSKEY_RP_ID, AUTH_PASSKEY_RP_NAME),
// and the one origin a ceremony may come from, BASE_URL's (checked inside every signed client data).
import { env } from "~/env.server";

export const relyingParty = {
  id: env.AUTH_PASSKEY_RP_ID,
  name: env.AUTH_PASSKEY_RP_NAME,
  origin: env.baseOrigin,
} as const;

/** Spec §5 and §9: a WebAuthn user id is 1 to 64 bytes. Ours is random, never the e-mail or the row id. */
export const WEBAUTHN_USER_ID_BYTES = 32;
/** How long a ceremony may take, in the browser and for its challenge on the server. */
export const CEREMONY_TIMEOUT_SECONDS = 5 * 60;
