// Social sign-in's entries in the one error catalogue (spread into ERRORS by app/auth/errors.ts).
export const SOCIAL_ERRORS = {
  PROVIDER_NOT_FOUND: [404, "Provider not found"],
  ID_TOKEN_NOT_SUPPORTED: [404, "id_token not supported"],
  FAILED_TO_GET_USER_INFO: [401, "Failed to get user info"],
  USER_EMAIL_NOT_FOUND: [401, "User email not found"],
  SOCIAL_ACCOUNT_ALREADY_LINKED: [400, "Social account already linked"],
  ACCOUNT_NOT_LINKED: [401, "account not linked"],
  EMAIL_DOESNT_MATCH: [400, "email doesn't match"],
  YOU_CANT_UNLINK_YOUR_LAST_ACCOUNT: [400, "You can't unlink your last account"],
  FAILED_TO_GET_A_VALID_ACCESS_TOKEN: [400, "Failed to get a valid access token"],
} as const;
