// The provider's signing keys: in the database, so every instance signs with the same keys and publishes the
// same set; the private half encrypted with AUTH_SECRET (docs/decisions/047-oidc-keys-and-storage.md). One key
// per algorithm signs at a time; a rotation makes a new one and retires the old, which stays published for
// KEY_OVERLAP_SECONDS so what it signed still verifies.
import { generateKeyPairSync, type webcrypto } from "node:crypto";

type JsonWebKey = webcrypto.JsonWebKey;
import { decrypt, encrypt, randomBase64Url } from "~/auth/core/crypto.server";
import { db } from "~/db.server";
import { KEY_OVERLAP_SECONDS, SIGNING_ALGORITHMS, type SigningAlgorithm } from "./constants";

export interface SigningKeySet {
  /** Changes whenever a key is added, retired or dropped: an instance rebuilds its provider when it does. */
  fingerprint: string;
  /** Private JWKs, the signing key of each algorithm before any retired one (the provider signs with the first). */
  privateKeys: JsonWebKey[];
  /** The published set: every key still inside its overlap. */
  publicKeys: JsonWebKey[];
}

function generate(alg: SigningAlgorithm): { privateJwk: JsonWebKey; publicJwk: JsonWebKey } {
  const pair =
    alg === "RS256"
      ? generateKeyPairSync("rsa", { modulusLength: 2048 })
      : alg === "ES256"
        ? generateKeyPairSync("ec", { namedCurve: "P-256" })
        : generateKeyPairSync("ed25519");
  return { privateJwk: pair.privateKey.export({ format: "jwk" }), publicJwk: pair.publicKey.export({ format: "jwk" }) };
}

async function addKey(alg: SigningAlgorithm): Promise<string> {
  const id = randomBase64Url(16);
  const { privateJwk, publicJwk } = generate(alg);
  const labels = { kid: id, alg, use: "sig" };
  await db.oidcSigningKey.create({
    data: { id, alg, privateJwk: encrypt(JSON.stringify({ ...privateJwk, ...labels })), publicJwk: JSON.stringify({ ...publicJwk, ...labels }) },
  });
  return id;
}

const overlapStart = (now: Date) => new Date(now.getTime() - KEY_OVERLAP_SECONDS * 1000);

/**
 * The key set, made on first use: an algorithm without a signing key gets one. Two instances starting together
 * may both make one; both are published, and every instance signs with the same (the newest, then by id).
 */
export async function signingKeySet(now = new Date()): Promise<SigningKeySet> {
  let rows = await liveKeys(now);
  const missing = SIGNING_ALGORITHMS.filter((alg) => !rows.some((row) => row.alg === alg && row.retiredAt === null));
  if (missing.length) {
    for (const alg of missing) await addKey(alg);
    rows = await liveKeys(now);
  }
  // A key sealed under another AUTH_SECRET cannot be read: it is left out (and said once per build of the set);
  // `rotate-keys` makes readable ones.
  const readable = rows.flatMap((row) => {
    try {
      return [{ row, privateJwk: JSON.parse(decrypt(row.privateJwk)) as JsonWebKey }];
    } catch {
      console.warn(`[latchkey] OpenID signing key ${row.id} cannot be decrypted with this AUTH_SECRET; run npm run oidc -- rotate-keys`);
      return [];
    }
  });
  return {
    fingerprint: fingerprintOf(rows),
    privateKeys: readable.map(({ privateJwk }) => privateJwk),
    publicKeys: readable.map(({ row }) => JSON.parse(row.publicJwk) as JsonWebKey),
  };
}

/** Signing keys first (newest first), then retired ones still inside the overlap. */
async function liveKeys(now: Date) {
  const rows = await db.oidcSigningKey.findMany({
    where: { OR: [{ retiredAt: null }, { retiredAt: { gt: overlapStart(now) } }] },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
  });
  return [...rows.filter((row) => row.retiredAt === null), ...rows.filter((row) => row.retiredAt !== null)];
}

function fingerprintOf(rows: { id: string; retiredAt: Date | null }[]): string {
  return rows.map((row) => `${row.id}:${row.retiredAt?.getTime() ?? ""}`).join(",");
}

/** What a request checks against its cached provider: one small read, no decryption. */
export async function currentKeyFingerprint(now = new Date()): Promise<string> {
  const rows = await db.oidcSigningKey.findMany({
    where: { OR: [{ retiredAt: null }, { retiredAt: { gt: overlapStart(now) } }] },
    select: { id: true, retiredAt: true, createdAt: true },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
  });
  return fingerprintOf([...rows.filter((row) => row.retiredAt === null), ...rows.filter((row) => row.retiredAt !== null)]);
}

/**
 * Rotation (`npm run oidc -- rotate-keys`): a new signing key per algorithm; the previous ones retire now and stay
 * published for the overlap; keys whose overlap has passed are deleted. Returns the new keys' ids.
 */
export async function rotateSigningKeys(now = new Date()): Promise<string[]> {
  const previous = await db.oidcSigningKey.findMany({ where: { retiredAt: null }, select: { id: true } });
  const added: string[] = [];
  for (const alg of SIGNING_ALGORITHMS) added.push(await addKey(alg));
  await db.oidcSigningKey.updateMany({ where: { id: { in: previous.map((key) => key.id) } }, data: { retiredAt: now } });
  await deleteRetiredKeys(now);
  return added;
}

/** Keys past their overlap: nothing they signed is still valid. Housekeeping runs it too. */
export async function deleteRetiredKeys(now = new Date()): Promise<void> {
  await db.oidcSigningKey.deleteMany({ where: { retiredAt: { lte: overlapStart(now) } } });
}
