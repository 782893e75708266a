// Security events in words for people (docs/decisions/014-words-for-people.md, 048-security-events.md), in English:
// the same sentences the activity page and the admin console say in their reader's language (sentences.ts, from
// the catalogs). Plain functions of stored values, no I/O.
import { eventSentence, sentenceText, type EventReader } from "~/auth/security-events/sentences";
import type { SecurityEventDetails } from "~/auth/security-events/types";
import { translator } from "~/i18n/format";
import en from "~/i18n/messages/en.json";

export type { EventReader } from "~/auth/security-events/sentences";

/** The ways a sign-in can be made, as `details.method` stores them (issue 29's exact strings). */
export type SignInMethod = "password" | "username" | "email_otp" | "passkey" | "social" | "verification_link";

/** English, as the code and its tests have always read the sentences; a page says them in its reader's language. */
const english = translator("en", en);

/** One sentence for an event in English: "Signed in with a passkey", "Passkey “Laptop” removed". */
export function describeEvent(type: string, details: SecurityEventDetails, reader: EventReader = "owner"): string {
  return sentenceText(english, eventSentence(type, details, reader));
}
