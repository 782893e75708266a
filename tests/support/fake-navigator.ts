// A browser's WebAuthn API for code that runs in Node (the official Better Auth client's passkey plugin calls
// @simplewebauthn/browser, which calls navigator.credentials): backed by the software authenticator, so the
// server still verifies real signatures. Installs PublicKeyCredential and navigator on globalThis.
import { SoftAuthenticator } from "./webauthn";

const toB64u = (buffer: ArrayBuffer | ArrayBufferView) =>
  Buffer.from(buffer instanceof ArrayBuffer ? new Uint8Array(buffer) : new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)).toString("base64url");
const toBuffer = (b64u: string) => {
  const bytes = Buffer.from(b64u, "base64url");
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
};

/** What navigator.credentials.create()/get() resolve to, as much of PublicKeyCredential as the library reads. */
function credentialObject(json: { id: string; rawId: string; type: string; response: Record<string, unknown>; authenticatorAttachment: string }) {
  const response: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(json.response)) if (typeof value === "string") response[key] = toBuffer(value);
  const transports = json.response.transports as string[] | undefined;
  if (transports) response.getTransports = () => transports;
  return {
    id: json.id,
    rawId: toBuffer(json.rawId),
    type: json.type,
    response,
    authenticatorAttachment: json.authenticatorAttachment,
    getClientExtensionResults: () => ({}),
  };
}

export function installFakeWebAuthn(authenticator: SoftAuthenticator): () => void {
  const saved = { navigator: Object.getOwnPropertyDescriptor(globalThis, "navigator"), PublicKeyCredential: (globalThis as Record<string, unknown>).PublicKeyCredential };
  const credentials = {
    async create({ publicKey }: { publicKey: { challenge: ArrayBuffer; user: { id: ArrayBuffer } } }) {
      return credentialObject(authenticator.register({ challenge: toB64u(publicKey.challenge), user: { id: toB64u(publicKey.user.id) } }).response);
    },
    async get({ publicKey }: { publicKey: { challenge: ArrayBuffer } }) {
      return credentialObject(authenticator.authenticate({ challenge: toB64u(publicKey.challenge) }));
    },
  };
  Object.defineProperty(globalThis, "navigator", { value: { credentials, userAgent: "node" }, configurable: true, writable: true });
  (globalThis as Record<string, unknown>).PublicKeyCredential = function PublicKeyCredential() {};
  return () => {
    if (saved.navigator) Object.defineProperty(globalThis, "navigator", saved.navigator);
    else delete (globalThis as Record<string, unknown>).navigator;
    (globalThis as Record<string, unknown>).PublicKeyCredential = saved.PublicKeyCredential;
  };
}
