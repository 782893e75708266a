// Proof of work's two refusals (issue 39 §5). Their codes and messages are Better Auth's own (its captcha plugin),
// which its clients compare, so the codes are not the messages upper-cased (ADR 004): the catalogue test allows
// exactly the codes listed in PROOF_OF_WORK_CODES_NOT_FROM_MESSAGES. Both answers also carry a fresh `challenge`.
export const PROOF_OF_WORK_ERRORS = {
  MISSING_RESPONSE: [400, "Missing CAPTCHA response"],
  VERIFICATION_FAILED: [403, "Captcha verification failed"],
} as const;

/** Better Auth's codes that are not their message upper-cased (the catalogue test allows exactly these). */
export const PROOF_OF_WORK_CODES_NOT_FROM_MESSAGES = ["MISSING_RESPONSE", "VERIFICATION_FAILED"] as const;
