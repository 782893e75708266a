// A software authenticator for API tests: a real P-256 key made with node:crypto, answering registration with
// attestation "none" and sign-in with a real ECDSA assertion, so the server's WebAuthn verification runs for real.
// Each answer can be bent (another origin, another RP ID, an old counter) to test the refusals.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";

type CborValue = number | string | Uint8Array | Map<CborValue, CborValue> | Record<string, unknown>;

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  const out = Buffer.alloc(5);
  out[0] = (major << 5) | 26;
  out.writeUInt32BE(length, 1);
  return out;
}

/** The few CBOR types an attestation object needs. */
export function cbor(value: CborValue): Buffer {
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string") return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  const entries = value instanceof Map ? [...value] : Object.entries(value);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, v]) => [cbor(k as CborValue), cbor(v as CborValue)])]);
}

const b64u = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

const FLAG = { UP: 0x01, UV: 0x04, BE: 0x08, BS: 0x10, AT: 0x40 };

export interface Credential {
  id: Buffer;
  key: KeyObject;
  publicKey: KeyObject;
  counter: number;
  userHandle: string;
}

export interface Bend {
  origin?: string;
  rpId?: string;
  challenge?: string;
  type?: string;
  /** Sign-in: the counter to report (default: one more than last time). */
  counter?: number;
  /** Registration: answer with this existing credential instead of a new one. */
  credential?: Credential;
  /** Sign-in: false for an authenticator that did not verify the person (no PIN or biometrics: UV flag clear). */
  userVerified?: boolean;
}

export class SoftAuthenticator {
  readonly credentials: Credential[] = [];

  constructor(
    readonly origin: string,
    readonly rpId = new URL(origin).hostname,
    /** Synced passkeys report backup eligibility and state, and a counter that stays 0. */
    readonly synced = false,
  ) {}

  private clientData(type: string, challenge: string, bend: Bend) {
    return Buffer.from(JSON.stringify({ type: bend.type ?? type, challenge: bend.challenge ?? challenge, origin: bend.origin ?? this.origin, crossOrigin: false }));
  }

  /** navigator.credentials.create() for the options the server sent. */
  register(options: { challenge: string; user: { id: string } }, bend: Bend = {}) {
    const { privateKey, publicKey } = bend.credential ? { privateKey: bend.credential.key, publicKey: bend.credential.publicKey } : generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = publicKey.export({ format: "jwk" });
    const credential: Credential = bend.credential ?? { id: randomBytes(32), key: privateKey, publicKey, counter: 0, userHandle: options.user.id };
    const cose = cbor(new Map<CborValue, CborValue>([[1, 2], [3, -7], [-1, 1], [-2, Buffer.from(jwk.x!, "base64url")], [-3, Buffer.from(jwk.y!, "base64url")]]));
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const flags = FLAG.UP | FLAG.UV | FLAG.AT | (this.synced ? FLAG.BE | FLAG.BS : 0);
    const authData = Buffer.concat([sha256(bend.rpId ?? this.rpId), Buffer.from([flags]), Buffer.alloc(4), Buffer.alloc(16), idLength, credential.id, cose]);
    const attestationObject = cbor({ fmt: "none", attStmt: new Map(), authData });
    if (!bend.credential) this.credentials.push(credential);
    return {
      credential,
      response: {
        id: b64u(credential.id),
        rawId: b64u(credential.id),
        type: "public-key" as const,
        response: { clientDataJSON: b64u(this.clientData("webauthn.create", options.challenge, bend)), attestationObject: b64u(attestationObject), transports: ["internal"] },
        clientExtensionResults: {},
        authenticatorAttachment: "platform" as const,
      },
    };
  }

  /** navigator.credentials.get() with one of this authenticator's credentials (the newest by default). */
  authenticate(options: { challenge: string }, credential = this.credentials.at(-1)!, bend: Bend = {}) {
    if (!this.synced) credential.counter = bend.counter ?? credential.counter + 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.synced ? 0 : credential.counter);
    const flags = FLAG.UP | (bend.userVerified === false ? 0 : FLAG.UV) | (this.synced ? FLAG.BE | FLAG.BS : 0);
    const authenticatorData = Buffer.concat([sha256(bend.rpId ?? this.rpId), Buffer.from([flags]), counter]);
    const clientDataJSON = this.clientData("webauthn.get", options.challenge, bend);
    const signature = sign("sha256", Buffer.concat([authenticatorData, sha256(clientDataJSON)]), credential.key);
    return {
      id: b64u(credential.id),
      rawId: b64u(credential.id),
      type: "public-key" as const,
      response: {
        clientDataJSON: b64u(clientDataJSON),
        authenticatorData: b64u(authenticatorData),
        signature: b64u(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform" as const,
    };
  }
}
