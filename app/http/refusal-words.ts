// Refusals a page says the same way whether its action found them on the server (page-messages.server.ts) or its
// script read them from the JSON API's code (the passkey buttons, passkey-ui.tsx): one English sentence each, found
// by its said.* pattern and shown in the page's language. The JSON API keeps the specification's messages.
export const REFUSAL_WORDS = {
  SESSION_IS_NOT_FRESH: "For your safety, confirm it's you before you do this.",
  UNAUTHORIZED: "You are signed out. Sign in and try again.",
  PASSKEY_NOT_FOUND: "That passkey no longer exists: it was deleted, perhaps in another tab.",
  BANNED_USER: "This account has been suspended by an administrator, so it can't sign in. Contact support if you think this is a mistake.",
} as const;
