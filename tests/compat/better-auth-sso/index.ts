// Better Auth's official client with its SSO plugin, resolved from this folder's own node_modules (1.7.5), not the
// project's better-auth 1.7.25, beside which npm will not install @better-auth/sso.
export { createAuthClient } from "better-auth/client";
export { ssoClient } from "@better-auth/sso/client";
