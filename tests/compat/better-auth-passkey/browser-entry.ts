// Bundled for the browser by tests/e2e/passkeys.spec.ts: the official client and passkey plugin on `window`.
import { createAuthClient } from "better-auth/client";
import { passkeyClient } from "@better-auth/passkey/client";

(window as unknown as Record<string, unknown>).betterAuthPasskey = { createAuthClient, passkeyClient };
