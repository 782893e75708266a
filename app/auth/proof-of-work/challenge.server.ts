// ALTCHA v2 challenges (altcha-lib, MIT): made here, solved by the client, checked here, used once.
// PBKDF2/SHA-256 in altcha's deterministic mode: the challenge fixes a secret counter between 1000 and 3000 and signs
// the key it derives (HMAC from AUTH_SECRET), so a client must try every counter up to it — about a second in a
// browser at AUTH_POW_COST 1000 iterations a try — while checking a solution costs this server one HMAC, not the work.
// Making one costs one derivation (AUTH_POW_COST iterations, ~0.5 ms at 1000). Five minutes to live, single use
// across instances (evidence.server.ts). docs/decisions/060-proof-of-work-under-a-burst.md.
import { createChallenge, randomInt, verifySolution, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { createHmac } from "node:crypto";
import { markChallengeUsed } from "~/auth/proof-of-work/evidence.server";
import { parseProofPayload } from "~/auth/proof-of-work/schemas";
import { env } from "~/env.server";

export const POW_ALGORITHM = "PBKDF2/SHA-256";
export const CHALLENGE_TTL_SECONDS = 5 * 60;
/** The secret counter's range: the number of tries a solution takes. */
export const COUNTER_RANGE = { min: 1000, max: 3000 } as const;

// Purpose-bound keys from AUTH_SECRET: one signs the challenge's parameters, the other the key its counter derives.
const secretFor = (purpose: string) => createHmac("sha256", env.AUTH_SECRET).update(`latchkey proof of work: ${purpose}`).digest("hex");
const signatureSecret = secretFor("challenge");
const keySignatureSecret = secretFor("derived key");

/** What the wire carries as `challenge`: altcha-lib's `{parameters, signature}`. */
export type ProofChallenge = Challenge;

export async function createProofChallenge(): Promise<ProofChallenge> {
  return createChallenge({
    algorithm: POW_ALGORITHM,
    cost: env.AUTH_POW_COST,
    counter: randomInt(COUNTER_RANGE.max, COUNTER_RANGE.min),
    deriveKey,
    expiresAt: Math.floor(Date.now() / 1000) + CHALLENGE_TTL_SECONDS,
    hmacSignatureSecret: signatureSecret,
    hmacKeySignatureSecret: keySignatureSecret,
  });
}

export type ProofVerdict = "verified" | "invalid" | "expired" | "reused";

/**
 * Checks a payload (base64 of `{challenge, solution}`) and, when it holds, uses its challenge up. Garbled,
 * forged (not signed here), wrongly solved, expired and already used payloads are all refused; only the verdict
 * says which, for tests and logs.
 */
export async function spendProof(response: string): Promise<ProofVerdict> {
  const payload = parseProofPayload(response);
  if (!payload || payload.challenge.parameters.algorithm !== POW_ALGORITHM) return "invalid";
  let result;
  try {
    result = await verifySolution({
      challenge: payload.challenge as Challenge,
      solution: payload.solution,
      deriveKey,
      hmacSignatureSecret: signatureSecret,
      hmacKeySignatureSecret: keySignatureSecret,
    });
  } catch {
    return "invalid"; // parameters altcha-lib cannot even read are no solution
  }
  if (result.expired) return "expired";
  if (!result.verified) return "invalid";
  // Only a verified payload writes (a forged one cannot fill the table); the signature names the challenge.
  return (await markChallengeUsed(payload.challenge.signature)) ? "verified" : "reused";
}
