// The official Better Auth client with its passkey plugin (@better-auth/passkey/client) registers and signs in
// against this server. The plugin's ceremonies go through @simplewebauthn/browser to navigator.credentials,
// which here is backed by the software authenticator (real keys, real signatures). The plugin lives in
// tests/compat/better-auth-passkey with its own lock file (it cannot be installed beside better-auth 1.7.25);
// without `npm ci` there, this file skips with a message, except under CI=true, where it fails.
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installFakeWebAuthn } from "../support/fake-navigator";
import { ApiClient, PASSWORD, signUp } from "../support/client";
import { browserFetch } from "../support/better-auth";
import { sharedServer, type TestServer } from "../support/server";
import { SoftAuthenticator } from "../support/webauthn";

const compat = path.join(import.meta.dirname, "..", "compat", "better-auth-passkey");
const installed = existsSync(path.join(compat, "node_modules", "@better-auth", "passkey"));
if (!installed) {
  const message = `[latchkey] skipping the official passkey client test: run \`npm ci --prefix ${path.relative(process.cwd(), compat)}\` first`;
  if (process.env.CI === "true") throw new Error(message);
  console.warn(message);
}

let server: TestServer;
beforeAll(async () => {
  if (installed) server = await sharedServer({ env: { AUTH_EMAIL_VERIFICATION: "off" }, mail: true });
});
afterAll(async () => {
  await server?.stop();
});

const COMPAT_ENTRY: string = "../compat/better-auth-passkey/index.ts";

/** The official client, with a browser's cookie jar and Origin header. */
async function officialClient(jar: ApiClient) {
  // A specifier the typecheck does not follow: that folder's packages exist only after its own `npm ci`.
  const { createAuthClient, passkeyClient } = await import(/* @vite-ignore */ COMPAT_ENTRY);
  const { customFetchImpl } = browserFetch(server, jar);
  return createAuthClient({ baseURL: server.baseUrl, plugins: [passkeyClient()], fetchOptions: { customFetchImpl } });
}

describe.skipIf(!installed)("@better-auth/passkey/client against this server", () => {
  it("adds a passkey, lists, renames and deletes it, and signs in with it", async () => {
    const authenticator = new SoftAuthenticator(server.origin);
    const restore = installFakeWebAuthn(authenticator);
    try {
      const jar = new ApiClient(server.baseUrl);
      const { user, email } = await signUp(jar);
      const client = await officialClient(jar);

      const added = await client.passkey.addPasskey({ name: "Official client key" });
      expect(added.error).toBeNull();
      expect(added.data).toMatchObject({ name: "Official client key", userId: user.id });

      const listed = await client.passkey.listUserPasskeys();
      expect(listed.error).toBeNull();
      expect(listed.data!.map((p: { name?: string | null }) => p.name)).toEqual(["Official client key"]);
      const id = listed.data![0].id;

      const again = await client.passkey.addPasskey();
      expect(again.data).toBeTruthy(); // a second credential from the same software authenticator

      // Signed out, a new browser signs in with the passkey alone.
      const freshJar = new ApiClient(server.baseUrl);
      const fresh = await officialClient(freshJar);
      const signedIn = await fresh.signIn.passkey();
      expect(signedIn.error).toBeNull();
      expect(signedIn.data).toMatchObject({ user: { id: user.id, email } });
      const session = await fresh.getSession();
      expect(session.data?.user.id).toBe(user.id);

      const renamed = await fresh.passkey.updatePasskey({ id, name: "Renamed" });
      expect(renamed.error).toBeNull();
      expect(renamed.data).toMatchObject({ passkey: { id, name: "Renamed" } });
      const deleted = await fresh.passkey.deletePasskey({ id });
      expect(deleted.error).toBeNull();
      expect(deleted.data).toEqual({ status: true });
      expect((await fresh.passkey.listUserPasskeys()).data).toHaveLength(1);
      expect((await jar.post("/api/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
    } finally {
      restore();
    }
  });

  it("reports the server's refusals in Better Auth's error shape", async () => {
    const authenticator = new SoftAuthenticator(server.origin);
    const restore = installFakeWebAuthn(authenticator);
    try {
      const client = await officialClient(new ApiClient(server.baseUrl));
      // No session: the options call is refused.
      const refused = await client.passkey.addPasskey();
      expect(refused.data).toBeNull();
      expect(refused.error).toMatchObject({ status: 401, code: "UNAUTHORIZED" });
      // A credential the server does not know.
      authenticator.register({ challenge: "AAAA", user: { id: "AAAA" } });
      const unknown = await client.signIn.passkey();
      expect(unknown.data).toBeNull();
      expect(unknown.error).toMatchObject({ status: 400, code: "AUTH_CANCELLED", message: "auth cancelled" });
    } finally {
      restore();
    }
  });
});
