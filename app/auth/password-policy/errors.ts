// The breached-password check's one refusal (issue 39 §2). Its code and message are Better Auth's own (its
// haveIBeenPwned plugin), which its clients compare, so the code is not the message upper-cased (ADR 004): the
// catalogue test allows exactly the codes listed in PASSWORD_POLICY_CODES_NOT_FROM_MESSAGES.
export const PASSWORD_POLICY_ERRORS = {
  PASSWORD_COMPROMISED: [400, "The password you entered has been compromised. Please choose a different password."],
} as const;

/** Better Auth's codes that are not their message upper-cased (the catalogue test allows exactly these). */
export const PASSWORD_POLICY_CODES_NOT_FROM_MESSAGES = ["PASSWORD_COMPROMISED"] as const;
