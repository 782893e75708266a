// @simplewebauthn/server, loaded the first time a passkey ceremony needs it. With the ASN.1 and X.509 libraries
// under it, loading it took ~0.6 s of CPU here: more than a third of the server's start-up, paid by every
// process (each WEB_CONCURRENCY worker, each restart) whether or not anyone uses a passkey (ADR 026).
type WebAuthn = typeof import("@simplewebauthn/server");

let loading: Promise<WebAuthn> | undefined;

export function webauthn(): Promise<WebAuthn> {
  loading ??= import("@simplewebauthn/server");
  return loading;
}

/** Credential public keys are stored as unpadded base64url, as @simplewebauthn/server's helpers write them. */
export const publicKeyToText = (key: Uint8Array): string => Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString("base64url");
export const publicKeyFromText = (text: string): Uint8Array<ArrayBuffer> => new Uint8Array(Buffer.from(text, "base64url"));
