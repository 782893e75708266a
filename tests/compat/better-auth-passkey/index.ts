// Better Auth's official client with its passkey plugin, resolved from this folder's own node_modules (1.7.6),
// not the project's better-auth 1.7.25, which npm will not install beside @better-auth/passkey.
export { createAuthClient } from "better-auth/client";
export { passkeyClient } from "@better-auth/passkey/client";
