// The browser side of passkeys: one typed module every page with passkey buttons uses (no server imports).
// Each action fetches options, runs the ceremony with @simplewebauthn/browser, posts the answer, and resolves to
// `{data, error}` — never throws — with `error = {status, code, message}` in the API's wording (spec §8): a
// cancelled sign-in is "auth cancelled", a cancelled registration "registration cancelled", an authenticator
// already known "previously registered", anything unexpected "unknown error". The passkey list is fetched again
// after a registration, rename or delete, and subscribers are told.
import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
  WebAuthnAbortService,
  WebAuthnError,
} from "@simplewebauthn/browser";

const BASE = "/api/auth";

export interface PasskeyError {
  status: number;
  code: string;
  message: string;
  /** "browser": the ceremony itself failed or was cancelled; "server": the API refused. */
  source: "browser" | "server" | "network";
}

export type Result<T> = { data: T; error: null } | { data: null; error: PasskeyError };

export interface Passkey {
  id: string;
  name: string | null;
  credentialID: string;
  deviceType: string;
  backedUp: boolean;
  transports: string | null;
  createdAt: string;
}

export interface SessionAndUser {
  session: { id: string; userId: string; expiresAt: string };
  user: { id: string; email: string; name: string; emailVerified: boolean };
}

const failure = (status: number, code: string, message: string, source: PasskeyError["source"]): { data: null; error: PasskeyError } => ({
  data: null,
  error: { status, code, message, source },
});

async function call<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<Result<T>> {
  let response: Response;
  try {
    response = await fetch(`${BASE}${path}`, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? undefined : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    // Spec §8: a network failure becomes an error response.
    return failure(0, "NETWORK_ERROR", (error as Error)?.message || "Network error", "network");
  }
  let parsed: unknown = null;
  try {
    parsed = await response.json();
  } catch {
    // an empty or non-JSON body
  }
  if (!response.ok) {
    const fields = (parsed ?? {}) as { code?: string; message?: string };
    return failure(response.status, fields.code ?? "UNKNOWN_ERROR", fields.message ?? (response.statusText || "unknown error"), "server");
  }
  return { data: parsed as T, error: null };
}

/** The browser's own errors in the specification's words (spec §8). */
function ceremonyError(error: unknown, ceremony: "register" | "authenticate"): { data: null; error: PasskeyError } {
  // Sign-in: whatever went wrong in the browser (closed dialog, no passkey for this site, timeout), it is "auth
  // cancelled", as Better Auth's client has it.
  if (ceremony === "authenticate") return failure(400, "AUTH_CANCELLED", "auth cancelled", "browser");
  // @simplewebauthn/browser wraps a DOMException (NotAllowedError: closed or timed out) in a WebAuthnError.
  const names = [error, (error as { cause?: unknown })?.cause].map((e) => (e instanceof Error ? e.name : ""));
  const cancelled = names.includes("NotAllowedError") || names.includes("AbortError");
  if (error instanceof WebAuthnError) {
    if (error.code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED") return failure(400, "PREVIOUSLY_REGISTERED", "previously registered", "browser");
    if (error.code === "ERROR_CEREMONY_ABORTED" || cancelled) return failure(400, "REGISTRATION_CANCELLED", "registration cancelled", "browser");
    return failure(400, error.code, error.message, "browser");
  }
  if (cancelled) return failure(400, "REGISTRATION_CANCELLED", "registration cancelled", "browser");
  if (error instanceof Error) return failure(500, "INTERNAL_SERVER_ERROR", error.message || "unknown error", "browser");
  return failure(500, "INTERNAL_SERVER_ERROR", "unknown error", "browser");
}

type Listener = (passkeys: Passkey[]) => void;
const listeners = new Set<Listener>();

async function refreshList(): Promise<void> {
  if (listeners.size === 0) return;
  const { data } = await call<Passkey[]>("GET", "/passkey/list-user-passkeys");
  if (data) listeners.forEach((listener) => listener(data));
}

async function register(options: { name?: string; authenticatorAttachment?: "platform" | "cross-platform" } = {}): Promise<Result<Passkey>> {
  const query = new URLSearchParams();
  if (options.authenticatorAttachment) query.set("authenticatorAttachment", options.authenticatorAttachment);
  if (options.name) query.set("name", options.name);
  const creation = await call<Parameters<typeof startRegistration>[0]["optionsJSON"]>("GET", `/passkey/generate-register-options?${query}`);
  if (creation.error) return creation;
  let response;
  try {
    response = await startRegistration({ optionsJSON: creation.data });
  } catch (error) {
    return ceremonyError(error, "register");
  }
  const verified = await call<Passkey>("POST", "/passkey/verify-registration", { response, ...(options.name ? { name: options.name } : {}) });
  if (verified.data) await refreshList();
  return verified;
}

async function authenticate(options: { email?: string; autoFill?: boolean } = {}): Promise<Result<SessionAndUser>> {
  // A button press replaces a pending autofill request (one ceremony at a time; the server keeps one challenge).
  if (!options.autoFill) WebAuthnAbortService.cancelCeremony();
  type RequestOptions = Parameters<typeof startAuthentication>[0]["optionsJSON"];
  // Autofill starts on page load, unasked: a GET, which changes nothing the user did. A button press is a POST.
  const request = options.autoFill
    ? await call<RequestOptions>("GET", "/passkey/generate-authenticate-options")
    : await call<RequestOptions>("POST", "/passkey/generate-authenticate-options", options.email ? { email: options.email } : {});
  if (request.error) return request;
  let response;
  try {
    response = await startAuthentication({ optionsJSON: request.data, useBrowserAutofill: options.autoFill === true });
  } catch (error) {
    return ceremonyError(error, "authenticate");
  }
  return call<SessionAndUser>("POST", "/passkey/verify-authentication", { response });
}

async function rename(id: string, name: string): Promise<Result<{ passkey: Passkey }>> {
  const result = await call<{ passkey: Passkey }>("POST", "/passkey/update-passkey", { id, name });
  if (result.data) await refreshList();
  return result;
}

async function remove(id: string): Promise<Result<{ status: true }>> {
  const result = await call<{ status: true }>("POST", "/passkey/delete-passkey", { id });
  if (result.data) await refreshList();
  return result;
}

/** Sign-up with a passkey alone (docs/decisions/017-passkey-sign-up.md), in two steps. */
const signUp = {
  sendCode: (input: { name: string; email: string }) => call<{ status: true }>("POST", "/passkey/sign-up/send-code", input),
  async complete(input: { code: string; name?: string }): Promise<Result<SessionAndUser>> {
    const creation = await call<Parameters<typeof startRegistration>[0]["optionsJSON"]>("POST", "/passkey/sign-up/generate-register-options", { code: input.code });
    if (creation.error) return creation;
    let response;
    try {
      response = await startRegistration({ optionsJSON: creation.data });
    } catch (error) {
      return ceremonyError(error, "register");
    }
    return call<SessionAndUser>("POST", "/passkey/sign-up/verify-registration", { code: input.code, response, ...(input.name ? { name: input.name } : {}) });
  },
};

export const passkey = {
  register,
  authenticate,
  list: () => call<Passkey[]>("GET", "/passkey/list-user-passkeys"),
  rename,
  delete: remove,
  signUp,
  /** Stops a pending ceremony (e.g. the autofill request when the page goes away). */
  cancel: () => WebAuthnAbortService.cancelCeremony(),
  /** Calls `listener` with the fresh list after every registration, rename and delete; returns the unsubscribe. */
  onListChange(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  supported: () => browserSupportsWebAuthn(),
  autofillSupported: () => browserSupportsWebAuthnAutofill(),
};
