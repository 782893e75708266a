// The browser side of passkeys: each ceremony fetches options, runs @simplewebauthn/browser, posts the answer,
// and resolves to `{data, error}` like every other call. The browser's own failures are put in the API's words
// (spec §8): a cancelled sign-in is "auth cancelled", a cancelled registration "registration cancelled", an
// authenticator already known "previously registered", anything unexpected "unknown error".
import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
  WebAuthnAbortService,
  WebAuthnError,
} from "@simplewebauthn/browser";
import type { Requester } from "~/client/fetch";
import type { BodyOf, ClientError, ClientResult, DataOf, QueryOf } from "~/client/types";

type RegisterOptions = DataOf<typeof import("~/routes/api.auth.passkey.generate-register-options")>;
type AuthenticateOptions = DataOf<typeof import("~/routes/api.auth.passkey.generate-authenticate-options")>;
type VerifyRegistration = typeof import("~/routes/api.auth.passkey.verify-registration");
type VerifyAuthentication = typeof import("~/routes/api.auth.passkey.verify-authentication");
type SignUpVerify = typeof import("~/routes/api.auth.passkey.sign-up.verify-registration");
type SignUpSendCode = typeof import("~/routes/api.auth.passkey.sign-up.send-code");
type UpdatePasskey = typeof import("~/routes/api.auth.passkey.update-passkey");
type DeletePasskey = typeof import("~/routes/api.auth.passkey.delete-passkey");
type ListPasskeys = typeof import("~/routes/api.auth.passkey.list-user-passkeys");

export type Passkey = DataOf<ListPasskeys>[number];

const browserFailure = (status: 400 | 500, code: string, message: string): { data: null; error: ClientError } => ({
  data: null,
  error: { status, statusText: status === 400 ? "BAD_REQUEST" : "INTERNAL_SERVER_ERROR", code, message, source: "browser" },
});

function ceremonyError(error: unknown, ceremony: "register" | "authenticate"): { data: null; error: ClientError } {
  // Sign-in: whatever went wrong in the browser (closed dialog, no passkey for this site, timeout) is
  // "auth cancelled", as Better Auth's client has it.
  if (ceremony === "authenticate") return browserFailure(400, "AUTH_CANCELLED", "auth cancelled");
  // @simplewebauthn/browser wraps a DOMException (NotAllowedError: closed or timed out) in a WebAuthnError.
  const names = [error, (error as { cause?: unknown })?.cause].map((e) => (e instanceof Error ? e.name : ""));
  const cancelled = names.includes("NotAllowedError") || names.includes("AbortError");
  if (error instanceof WebAuthnError) {
    if (error.code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED") return browserFailure(400, "PREVIOUSLY_REGISTERED", "previously registered");
    if (error.code === "ERROR_CEREMONY_ABORTED" || cancelled) return browserFailure(400, "REGISTRATION_CANCELLED", "registration cancelled");
    return browserFailure(400, error.code, error.message);
  }
  if (cancelled) return browserFailure(400, "REGISTRATION_CANCELLED", "registration cancelled");
  return browserFailure(500, "INTERNAL_SERVER_ERROR", (error instanceof Error && error.message) || "unknown error");
}

/** The registration ceremony on the options the server sent: the authenticator's answer, ready to verify. */
async function createCredential(options: Promise<ClientResult<RegisterOptions>>) {
  const creation = await options;
  if (creation.error) return creation;
  try {
    const response = await startRegistration({ optionsJSON: creation.data as Parameters<typeof startRegistration>[0]["optionsJSON"] });
    return { data: { ...response, clientExtensionResults: { ...response.clientExtensionResults } }, error: null } as const;
  } catch (error) {
    return ceremonyError(error, "register");
  }
}

export function passkeyCalls(request: Requester) {
  async function register(options: QueryOf<typeof import("~/routes/api.auth.passkey.generate-register-options")> = {}): Promise<
    ClientResult<DataOf<VerifyRegistration>>
  > {
    const created = await createCredential(request<RegisterOptions>("/passkey/generate-register-options", { method: "GET", query: options }));
    if (created.error) return created;
    const body: BodyOf<VerifyRegistration> = { response: created.data, ...(options.name ? { name: options.name } : {}) };
    return request<DataOf<VerifyRegistration>>("/passkey/verify-registration", { method: "POST", body });
  }

  /** Sign-in with a passkey: a button press (POST, optionally for one e-mail), or autofill started on page load (GET). */
  async function authenticate(
    options: BodyOf<typeof import("~/routes/api.auth.passkey.generate-authenticate-options")> & { autoFill?: boolean } = {},
  ): Promise<ClientResult<DataOf<VerifyAuthentication>>> {
    const { autoFill, ...body } = options;
    // A button press replaces a pending autofill request (one ceremony at a time; the server keeps one challenge).
    if (!autoFill) WebAuthnAbortService.cancelCeremony();
    const request_ = autoFill
      ? await request<AuthenticateOptions>("/passkey/generate-authenticate-options", { method: "GET" })
      : await request<AuthenticateOptions>("/passkey/generate-authenticate-options", { method: "POST", body });
    if (request_.error) return request_;
    let response;
    try {
      response = await startAuthentication({
        optionsJSON: request_.data as Parameters<typeof startAuthentication>[0]["optionsJSON"],
        useBrowserAutofill: autoFill === true,
      });
    } catch (error) {
      return ceremonyError(error, "authenticate");
    }
    const verify: BodyOf<VerifyAuthentication> = { response: { ...response, clientExtensionResults: { ...response.clientExtensionResults } } };
    return request<DataOf<VerifyAuthentication>>("/passkey/verify-authentication", { method: "POST", body: verify });
  }

  /** "Confirm it's you" with one of the signed-in account's passkeys (step-up, ADR 059): the session is then recently verified. */
  async function reverify(): Promise<ClientResult<{ status: true }>> {
    WebAuthnAbortService.cancelCeremony();
    const options = await request<AuthenticateOptions>("/reverify/passkey-options", { method: "POST", body: {} });
    if (options.error) return options;
    let response;
    try {
      response = await startAuthentication({ optionsJSON: options.data as Parameters<typeof startAuthentication>[0]["optionsJSON"] });
    } catch (error) {
      return ceremonyError(error, "authenticate");
    }
    const body = { response: { ...response, clientExtensionResults: { ...response.clientExtensionResults } } };
    return request<{ status: true }>("/reverify/passkey", { method: "POST", body });
  }

  /** Sign-up with a passkey alone (docs/decisions/017-passkey-sign-up.md), in two steps. */
  const signUp = {
    sendCode: (body: BodyOf<SignUpSendCode>) => request<DataOf<SignUpSendCode>>("/passkey/sign-up/send-code", { method: "POST", body }),
    async complete(input: { code: string; name?: string }): Promise<ClientResult<DataOf<SignUpVerify>>> {
      const created = await createCredential(
        request<RegisterOptions>("/passkey/sign-up/generate-register-options", { method: "POST", body: { code: input.code } }),
      );
      if (created.error) return created;
      const body: BodyOf<SignUpVerify> = { code: input.code, response: created.data, ...(input.name ? { name: input.name } : {}) };
      return request<DataOf<SignUpVerify>>("/passkey/sign-up/verify-registration", { method: "POST", body });
    },
  };

  return {
    authenticate,
    passkey: {
      /** Registers a new passkey for the signed-in user (Better Auth: `passkey.addPasskey`). */
      addPasskey: register,
      reverify,
      listUserPasskeys: () => request<DataOf<ListPasskeys>>("/passkey/list-user-passkeys", { method: "GET" }),
      updatePasskey: (body: BodyOf<UpdatePasskey>) => request<DataOf<UpdatePasskey>>("/passkey/update-passkey", { method: "POST", body }),
      deletePasskey: (body: BodyOf<DeletePasskey>) => request<DataOf<DeletePasskey>>("/passkey/delete-passkey", { method: "POST", body }),
      signUp,
      /** Stops a pending ceremony (e.g. the autofill request when the page goes away). */
      cancel: () => WebAuthnAbortService.cancelCeremony(),
      supported: () => browserSupportsWebAuthn(),
      autofillSupported: () => browserSupportsWebAuthnAutofill(),
    },
  };
}
