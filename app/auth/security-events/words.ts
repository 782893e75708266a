// Security events in words for people (docs/decisions/014-words-for-people.md, 048-security-events.md): the
// activity page, the security mails and the admin console's list of an account's events read the same
// sentences, made from the catalogs (sentences.ts). Plain functions of stored values, no I/O.
import { eventSentence, sentenceText, type EventReader } from "~/auth/security-events/sentences";
import type { SecurityEventDetails } from "~/auth/security-events/types";
import { translator } from "~/i18n/format";
import en from "~/i18n/messages/en.json";

export type { EventReader } from "~/auth/security-events/sentences";

/** The ways a sign-in can be made, as `details.method` stores them (issue 29's exact strings). */
export type SignInMethod = "password" | "username" | "email_otp" | "passkey" | "social" | "verification_link";

/** "with a passkey", "with Test SSO": how someone signed in, to follow "Signed in". */
export function signInMethodWords(details: SecurityEventDetails): string {
  switch (details.method) {
    case "password":
      return "with a password";
    case "username":
      return "with a username and password";
    case "email_otp":
      return "with a code sent by email";
    case "passkey":
      return "with a passkey";
    case "social":
      return `with ${typeof details.providerName === "string" ? details.providerName : typeof details.provider === "string" ? details.provider : "another account"}`;
    case "verification_link":
      return "with an email verification link";
    default:
      return "";
  }
}

/** English, as the code and its tests have always read the sentences; a page says them in its reader's language. */
const english = translator("en", en);

/** One sentence for an event in English: "Signed in with a passkey", "Passkey “Laptop” removed". */
export function describeEvent(type: string, details: SecurityEventDetails, reader: EventReader = "owner"): string {
  return sentenceText(english, eventSentence(type, details, reader));
}
