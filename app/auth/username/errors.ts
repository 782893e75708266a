// Username entries of the error catalogue (spread into ERRORS by app/auth/errors.ts).
export const USERNAME_ERRORS = {
  INVALID_USERNAME_OR_PASSWORD: [401, "invalid username or password"],
  USERNAME_IS_ALREADY_TAKEN_PLEASE_TRY_ANOTHER: [422, "username is already taken. please try another."],
  USERNAME_IS_TOO_SHORT: [400, "Username is too short"],
  USERNAME_IS_TOO_LONG: [400, "Username is too long"],
  USERNAME_IS_INVALID: [400, "Username is invalid"],
} as const satisfies Record<string, readonly [number, string]>;
