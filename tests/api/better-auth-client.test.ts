// The product's promise: Better Auth's official browser client works against this server unchanged. Here the
// real client (better-auth/client) drives the real server; only the cookie jar a browser would keep is added.
import { createAuthClient } from "better-auth/client";
import { describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, uniqueEmail } from "../support/client";
import { actionLink, Mailbox } from "../support/mailbox";
import { browserFetch } from "../support/better-auth";
import { useServerWithMailbox, type TestServer } from "../support/server";

let server: TestServer;
let mailbox: Mailbox;
useServerWithMailbox({}, (running) => ({ server, mailbox } = running));

/** The official client with a browser's cookie jar and Origin header (what `credentials: "include"` gives). */
function browserClient() {
  const { customFetchImpl, jar } = browserFetch(server);
  return createAuthClient({ baseURL: server.baseUrl, fetchOptions: { customFetchImpl } });
}

describe("Better Auth's official client against this server", () => {
  it("signs up, reads the session, updates the profile, signs out and back in", async () => {
    const client = browserClient();
    const email = uniqueEmail("ba-client");
    const signUp = await client.signUp.email({ name: "Client User", email, password: PASSWORD });
    expect(signUp.error).toBeNull();
    expect(signUp.data?.user.email).toBe(email);

    const session = await client.getSession();
    expect(session.error).toBeNull();
    expect(session.data?.user.email).toBe(email);
    expect(session.data?.session.token).toBe(signUp.data?.token);

    expect((await client.updateUser({ name: "Renamed" })).error).toBeNull();
    expect((await client.getSession()).data?.user.name).toBe("Renamed");

    expect((await client.signOut()).data).toEqual({ success: true });
    expect((await client.getSession()).data).toBeNull();

    const signIn = await client.signIn.email({ email, password: PASSWORD, callbackURL: "/account" });
    expect(signIn.error).toBeNull();
    expect(signIn.data).toMatchObject({ redirect: true, url: "/account" });
    expect((await client.getSession()).data?.user.name).toBe("Renamed");
  });

  it("surfaces errors with the status, code and message clients switch on", async () => {
    const client = browserClient();
    const wrong = await client.signIn.email({ email: uniqueEmail("nobody"), password: "not the password" });
    expect(wrong.data).toBeNull();
    expect(wrong.error).toMatchObject({ status: 401, code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" });

    const short = await client.signUp.email({ name: "Short", email: uniqueEmail("short"), password: "short" });
    expect(short.error).toMatchObject({ status: 400, code: "PASSWORD_TOO_SHORT", message: "Password too short" });
  });

  it("lists and revokes sessions", async () => {
    const email = uniqueEmail("ba-sessions");
    const laptop = browserClient();
    await laptop.signUp.email({ name: "Two Devices", email, password: PASSWORD });
    const phone = browserClient();
    await phone.signIn.email({ email, password: PASSWORD });

    const listed = await laptop.listSessions();
    expect(listed.error).toBeNull();
    expect(listed.data).toHaveLength(2);

    expect((await laptop.revokeOtherSessions()).data).toEqual({ status: true });
    expect((await phone.getSession()).data).toBeNull();
    expect((await laptop.getSession()).data?.user.email).toBe(email);
  });

  it("changes the password, and resets it through the e-mailed link", async () => {
    const client = browserClient();
    const email = uniqueEmail("ba-password");
    await client.signUp.email({ name: "Password", email, password: PASSWORD });
    const changed = await client.changePassword({ currentPassword: PASSWORD, newPassword: "second passphrase", revokeOtherSessions: true });
    expect(changed.error).toBeNull();
    expect(changed.data?.token).toEqual(expect.any(String));

    const requested = await browserClient().requestPasswordReset({ email, redirectTo: "/reset-password" });
    expect(requested.error).toBeNull();
    expect(requested.data?.status).toBe(true);
    const link = actionLink(await mailbox.waitFor(email, /Reset your password/));
    const redirected = await new ApiClient(server.baseUrl).get(link);
    const token = new URL(redirected.headers.get("location")!, server.baseUrl).searchParams.get("token")!;

    const reset = await browserClient().resetPassword({ newPassword: "third passphrase", token });
    expect(reset.error).toBeNull();
    expect((await browserClient().signIn.email({ email, password: "third passphrase" })).error).toBeNull();
  });

  it("sends a verification e-mail and deletes the user", async () => {
    const client = browserClient();
    const email = uniqueEmail("ba-delete");
    await client.signUp.email({ name: "Leaving", email, password: PASSWORD });
    expect((await client.sendVerificationEmail({ email })).data).toEqual({ status: true });
    const deleted = await client.deleteUser({ password: PASSWORD });
    expect(deleted.data).toEqual({ success: true, message: "User deleted" });
    expect((await browserClient().signIn.email({ email, password: PASSWORD })).error?.status).toBe(401);
  });
});
