// The ALTCHA v2 payload a client sends back (issue 39 §5): base64 of `{challenge, solution}`, where `challenge` is
// what `GET /pow/challenge` (or a refusal) handed out. Checked for shape before altcha-lib sees it, so a garbled
// payload is a refusal, never an exception.
import { z } from "zod";

/** Longest base64 payload read: a real one is ~700 characters. */
export const MAX_PAYLOAD_LENGTH = 4096;

const hex = (max: number) => z.string().min(2).max(max).regex(/^[0-9a-f]+$/);

// Loose: the signature covers every parameter as sent, so nothing may be dropped before it is checked.
const parameters = z.looseObject({
  algorithm: z.string().max(32),
  nonce: hex(64),
  salt: hex(64),
  cost: z.number().int().positive(),
  keyLength: z.number().int().positive().max(64),
  keyPrefix: hex(128),
  keySignature: hex(128),
  // Our challenges always expire; one without an expiry was not made here.
  expiresAt: z.number().int().positive(),
});

export const proofPayloadSchema = z.object({
  challenge: z.looseObject({ parameters, signature: hex(128) }),
  solution: z.looseObject({ counter: z.number().int().min(0).max(0xffffffff), derivedKey: hex(128), time: z.number().optional() }),
});

export type ProofPayload = z.infer<typeof proofPayloadSchema>;

/** The payload in a header or form field, or null when it is not one. */
export function parseProofPayload(text: string): ProofPayload | null {
  if (text.length > MAX_PAYLOAD_LENGTH) return null;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(text, "base64").toString("utf8"));
  } catch {
    return null;
  }
  const parsed = proofPayloadSchema.safeParse(decoded);
  return parsed.success ? (decoded as ProofPayload) : null;
}
