// The admin capability's entries in the one error catalogue, worded as Better Auth 1.7's admin plugin words them
// (its ADMIN_ERROR_CODES), so its adminClient() sees the codes it knows. A few of its codes are not their message
// upper-cased (BANNED_USER, …): those are Better Auth's and kept as they are (ADMIN_CODES_NOT_FROM_MESSAGES).
export const ADMIN_ERRORS = {
  YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS: [403, "You are not allowed to create users"],
  YOU_ARE_NOT_ALLOWED_TO_LIST_USERS: [403, "You are not allowed to list users"],
  YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS: [403, "You are not allowed to list users sessions"],
  YOU_ARE_NOT_ALLOWED_TO_BAN_USERS: [403, "You are not allowed to ban users"],
  YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS: [403, "You are not allowed to impersonate users"],
  YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS: [403, "You are not allowed to revoke users sessions"],
  YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS: [403, "You are not allowed to delete users"],
  YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD: [403, "You are not allowed to set users password"],
  YOU_ARE_NOT_ALLOWED_TO_GET_USER: [403, "You are not allowed to get user"],
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_USERS: [403, "You are not allowed to update users"],
  YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE: [403, "You are not allowed to change users role"],
  YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE: [400, "You are not allowed to set a non-existent role value"],
  YOU_ARE_NOT_ALLOWED_TO_SET_USERS_EMAIL: [403, "You are not allowed to update users email"],
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: [400, "User already exists. Use another email."],
  YOU_CANNOT_BAN_YOURSELF: [400, "You cannot ban yourself"],
  YOU_CANNOT_REMOVE_YOURSELF: [400, "You cannot remove yourself"],
  /** Ours: Better Auth lets an admin drop their own admin role; here the last way back could go with it. */
  YOU_CANNOT_DEMOTE_YOURSELF: [400, "You cannot demote yourself"],
  YOU_CANNOT_IMPERSONATE_ADMINS: [403, "You cannot impersonate admins"],
  BANNED_USER: [403, "You have been banned from this application"],
  NO_DATA_TO_UPDATE: [400, "No data to update"],
  INVALID_ROLE_TYPE: [400, "Invalid role type"],
  PASSWORD_CANNOT_BE_UPDATED_VIA_UPDATE_USER: [400, "Password cannot be updated through update-user. Use the set-user-password endpoint instead"],
  USER_ID_CANNOT_BE_UPDATED: [400, "User id cannot be updated"],
  YOU_ARE_NOT_IMPERSONATING_ANYONE: [400, "You are not impersonating anyone"],
  /** Better Auth answers a missing or foreign admin cookie with a 500; it is the caller's state, so a 400 here. */
  FAILED_TO_FIND_ADMIN_SESSION: [400, "Failed to find admin session"],
  /** Ours (issue 30): an admin acting as someone cannot change how they sign in, nor delete the account. */
  NOT_ALLOWED_WHILE_IMPERSONATING: [403, "Not allowed while impersonating"],
  /** Ours: the console's applications page (OpenID clients) is for admins. */
  YOU_ARE_NOT_ALLOWED_TO_MANAGE_APPLICATIONS: [403, "You are not allowed to manage applications"],
  /** Ours: a client the console cannot register; the message says why (the rules `npm run oidc` applies). */
  INVALID_CLIENT_REGISTRATION: [400, "Invalid client registration"],
  /** Ours: the console's delete step, where the address typed is the account's, not the admin's own. */
  ACCOUNT_EMAIL_MISMATCH: [400, "Account email mismatch"],
} as const;

/** Better Auth's own codes that are not their message upper-cased (the catalogue test allows exactly these). */
export const ADMIN_CODES_NOT_FROM_MESSAGES = [
  "BANNED_USER",
  "YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE",
  "YOU_ARE_NOT_ALLOWED_TO_SET_USERS_EMAIL",
  "PASSWORD_CANNOT_BE_UPDATED_VIA_UPDATE_USER",
] as const;
