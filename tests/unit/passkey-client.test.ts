// The client's passkey calls (app/client/passkey.ts): options → ceremony → verify, and every failure as
// {data: null, error: {status, code, message}} in the specification's words. The ceremony functions of
// @simplewebauthn/browser and fetch are stubbed; WebAuthnError is the real class.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const ceremony = vi.hoisted(() => ({ startRegistration: vi.fn(), startAuthentication: vi.fn(), cancelCeremony: vi.fn() }));

vi.mock("@simplewebauthn/browser", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@simplewebauthn/browser")>();
  return {
    ...actual,
    startRegistration: ceremony.startRegistration,
    startAuthentication: ceremony.startAuthentication,
    WebAuthnAbortService: { cancelCeremony: ceremony.cancelCeremony, createNewAbortSignal: vi.fn() },
  };
});

const { WebAuthnError } = await import("@simplewebauthn/browser");
const { createAuthClient } = await import("~/client");
let client: ReturnType<typeof createAuthClient>;
let passkey: ReturnType<typeof createAuthClient>["passkey"];

/** Watches the client's passkey list, as usePasskeys() does; returns the lists it saw after the first. */
function watchList() {
  const seen: unknown[] = [];
  let first = true;
  const stop = client.$store.passkeys.subscribe(() => {
    const { data, isPending, isRefetching } = client.$store.passkeys.getSnapshot();
    if (isPending || isRefetching) return;
    if (first) first = false;
    else seen.push(data);
  });
  return { seen, stop };
}

type Reply = { status?: number; body?: unknown };
let replies: Record<string, Reply>;
let calls: Array<{ method: string; path: string; body: unknown }>;

beforeEach(() => {
  client = createAuthClient();
  passkey = client.passkey;
  calls = [];
  replies = {
    "/api/auth/passkey/generate-register-options": { body: { challenge: "c" } },
    "/api/auth/passkey/generate-authenticate-options": { body: { challenge: "c" } },
    "/api/auth/passkey/verify-registration": { body: { id: "pk1", name: "Laptop" } },
    "/api/auth/passkey/verify-authentication": { body: { session: { id: "s" }, user: { id: "u" } } },
    "/api/auth/passkey/list-user-passkeys": { body: [{ id: "pk1" }] },
    "/api/auth/passkey/update-passkey": { body: { passkey: { id: "pk1", name: "New" } } },
    "/api/auth/passkey/delete-passkey": { body: { status: true } },
  };
  vi.stubGlobal("fetch", async (url: string, init: RequestInit = {}) => {
    const path = url.split("?")[0];
    calls.push({ method: init.method ?? "GET", path, body: init.body ? JSON.parse(String(init.body)) : undefined });
    const reply = replies[path];
    if (!reply) throw new TypeError("Failed to fetch");
    return new Response(JSON.stringify(reply.body ?? null), { status: reply.status ?? 200 });
  });
  ceremony.startRegistration.mockResolvedValue({ id: "cred" });
  ceremony.startAuthentication.mockResolvedValue({ id: "cred" });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

const webauthnError = (code: ConstructorParameters<typeof WebAuthnError>[0]["code"], name = "Error") =>
  new WebAuthnError({ code, message: `browser said ${code}`, name, cause: new Error("cause") });

describe("passkey.register", () => {
  it("fetches options, runs the ceremony, posts the answer with the name, and refetches the list", async () => {
    const { seen, stop } = watchList();
    await vi.waitFor(() => expect(client.$store.passkeys.getSnapshot().isPending).toBe(false));
    calls = [];
    const result = await passkey.addPasskey({ name: "Laptop" });
    expect(result).toEqual({ data: { id: "pk1", name: "Laptop" }, error: null });
    await vi.waitFor(() => expect(seen).toEqual([[{ id: "pk1" }]]));
    stop();
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      "GET /api/auth/passkey/generate-register-options",
      "POST /api/auth/passkey/verify-registration",
      "GET /api/auth/passkey/list-user-passkeys",
    ]);
    expect(calls[1].body).toEqual({ response: { id: "cred", clientExtensionResults: {} }, name: "Laptop" });
  });

  it.each([
    ["a closed dialog (NotAllowedError)", Object.assign(new Error("closed"), { name: "NotAllowedError" }), "REGISTRATION_CANCELLED", "registration cancelled"],
    ["an aborted ceremony", webauthnError("ERROR_CEREMONY_ABORTED", "AbortError"), "REGISTRATION_CANCELLED", "registration cancelled"],
    [
      "a wrapped NotAllowedError",
      new WebAuthnError({ code: "ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY", message: "x", name: "NotAllowedError", cause: Object.assign(new Error("x"), { name: "NotAllowedError" }) }),
      "REGISTRATION_CANCELLED",
      "registration cancelled",
    ],
    ["an authenticator already registered", webauthnError("ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED", "InvalidStateError"), "PREVIOUSLY_REGISTERED", "previously registered"],
    ["another WebAuthn error (its own message)", webauthnError("ERROR_INVALID_RP_ID", "SecurityError"), "ERROR_INVALID_RP_ID", "browser said ERROR_INVALID_RP_ID"],
  ])("maps %s", async (_label, thrown, code, message) => {
    ceremony.startRegistration.mockRejectedValue(thrown);
    const result = await passkey.addPasskey();
    expect(result.data).toBeNull();
    expect(result.error).toMatchObject({ status: 400, code, message, source: "browser" });
    expect(calls.map((c) => c.path)).not.toContain("/api/auth/passkey/verify-registration");
  });

  it("maps an unknown failure to a 500 with its message or 'unknown error'", async () => {
    ceremony.startRegistration.mockRejectedValue("something odd");
    expect((await passkey.addPasskey()).error).toMatchObject({ status: 500, code: "INTERNAL_SERVER_ERROR", message: "unknown error" });
    ceremony.startRegistration.mockRejectedValue(new TypeError("boom"));
    expect((await passkey.addPasskey()).error).toMatchObject({ status: 500, code: "INTERNAL_SERVER_ERROR", message: "boom" });
  });

  it("passes the server's refusal through as {status, code, message}", async () => {
    replies["/api/auth/passkey/verify-registration"] = { status: 400, body: { code: "PREVIOUSLY_REGISTERED", message: "previously registered" } };
    expect((await passkey.addPasskey()).error).toEqual({
      status: 400,
      statusText: "",
      code: "PREVIOUSLY_REGISTERED",
      message: "previously registered",
      source: "server",
    });
    replies["/api/auth/passkey/generate-register-options"] = { status: 401, body: { code: "UNAUTHORIZED", message: "Unauthorized" } };
    expect((await passkey.addPasskey()).error).toMatchObject({ status: 401, code: "UNAUTHORIZED" });
  });

  it("turns a network failure into an error response", async () => {
    delete replies["/api/auth/passkey/generate-register-options"];
    expect((await passkey.addPasskey()).error).toMatchObject({ status: 0, code: "NETWORK_ERROR", source: "network" });
  });
});

describe("signIn.passkey", () => {
  it("signs in: options (with the e-mail), ceremony, verify → {session, user}", async () => {
    const result = await client.signIn.passkey({ email: "a@example.com" });
    expect(result.data).toEqual({ session: { id: "s" }, user: { id: "u" } });
    expect(calls[0]).toEqual({ method: "POST", path: "/api/auth/passkey/generate-authenticate-options", body: { email: "a@example.com" } });
    expect(ceremony.startAuthentication).toHaveBeenCalledWith({ optionsJSON: { challenge: "c" }, useBrowserAutofill: false });
  });

  it("a button ceremony first cancels a pending autofill request; autofill itself does not", async () => {
    await client.signIn.passkey({ autoFill: true });
    expect(calls[0]).toMatchObject({ method: "GET", path: "/api/auth/passkey/generate-authenticate-options" });
    expect(ceremony.cancelCeremony).not.toHaveBeenCalled();
    expect(ceremony.startAuthentication).toHaveBeenLastCalledWith({ optionsJSON: { challenge: "c" }, useBrowserAutofill: true });
    await client.signIn.passkey();
    expect(ceremony.cancelCeremony).toHaveBeenCalledTimes(1);
  });

  it.each([
    ["a closed dialog", Object.assign(new Error("closed"), { name: "NotAllowedError" })],
    ["an aborted ceremony", webauthnError("ERROR_CEREMONY_ABORTED", "AbortError")],
    ["a wrapped browser refusal", webauthnError("ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY", "NotAllowedError")],
    ["any other failure", new TypeError("boom")],
  ])("maps %s to 'auth cancelled'", async (_label, thrown) => {
    ceremony.startAuthentication.mockRejectedValue(thrown);
    expect((await client.signIn.passkey()).error).toMatchObject({ status: 400, code: "AUTH_CANCELLED", message: "auth cancelled", source: "browser" });
  });
});

describe("list, rename, delete", () => {
  it("rename and delete refetch the list for subscribers", async () => {
    const { seen, stop } = watchList();
    await vi.waitFor(() => expect(client.$store.passkeys.getSnapshot().isPending).toBe(false));
    expect((await passkey.updatePasskey({ id: "pk1", name: "New" })).data).toEqual({ passkey: { id: "pk1", name: "New" } });
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    expect((await passkey.deletePasskey({ id: "pk1" })).data).toEqual({ status: true });
    await vi.waitFor(() => expect(seen).toHaveLength(2));
    stop();
    expect(calls.filter((c) => c.method === "POST").map((c) => c.body)).toEqual([{ id: "pk1", name: "New" }, { id: "pk1" }]);
    expect((await passkey.listUserPasskeys()).data).toEqual([{ id: "pk1" }]);
  });
});
