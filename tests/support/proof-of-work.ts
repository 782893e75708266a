// Solving proof-of-work challenges in tests (issue 39 §5) with altcha-lib's own solver: a test server runs with a
// tiny AUTH_POW_COST, so a solution takes a few thousand one-iteration PBKDF2 calls.
import { createChallenge, solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";

/** The ALTCHA v2 payload for a challenge: base64 of `{challenge, solution}`, as the widget sends it. */
export async function solvePow(challenge: Challenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey, timeout: 60_000 });
  if (!solution) throw new Error("the challenge was not solved in time");
  return Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
}

/** A challenge like the server's, but signed with another secret: its solution is real, its signature is not ours. */
export function foreignChallenge(): Promise<Challenge> {
  return createChallenge({
    algorithm: "PBKDF2/SHA-256",
    cost: 1,
    counter: 10,
    deriveKey,
    expiresAt: Math.floor(Date.now() / 1000) + 300,
    hmacSignatureSecret: "not the server's secret",
    hmacKeySignatureSecret: "not the server's key secret",
  });
}
