// A security event's sentence in the reader's language (app/auth/security-events/sentences.ts): names the person
// or an organization wrote in <bdi>, addresses and identifiers in dir="ltr", so they read right in any direction.
// The activity page, the sign-out-everywhere question and the admin console show events through these.
import type { ReactNode } from "react";
import { sentenceText, sentenceValues, type Sentence } from "~/auth/security-events/sentences";
import type { Translator } from "~/i18n/format";
import { useT } from "~/i18n/react";

const TAGS = {
  bdi: (chunks: ReactNode[]) => <bdi>{chunks}</bdi>,
  ltr: (chunks: ReactNode[]) => <span dir="ltr">{chunks}</span>,
};

export function EventWords({ sentence }: { sentence: Sentence }) {
  const t = useT();
  return <>{t.rich(sentence.key, sentenceValues(t, sentence), TAGS)}</>;
}

/** The sentence as plain text (a link's hidden words). */
export const eventWordsText = (t: Translator, sentence: Sentence) => sentenceText(t, sentence);

export interface EventOriginData {
  byAdministrator: boolean;
  device: string | null;
  ipAddress: string | null;
}

/**
 * " — Chrome on Linux, 203.0.113.9": the browser and client address; for an event an administrator made only
 * that (their address and browser are for operators, issue 38), left out when the sentence says it already.
 */
export function EventOrigin({ sentence, origin }: { sentence: Sentence; origin: EventOriginData }) {
  const t = useT();
  if (origin.byAdministrator) return sentence.namesAdministrator ? null : <> — {t.t("activity.byAdministrator")}</>;
  const device = origin.device ? t.device(origin.device) : null;
  if (device && origin.ipAddress) return <> — {t.rich("activity.deviceAndAddress", { device, address: origin.ipAddress }, TAGS)}</>;
  if (device) return <> — {device}</>;
  if (origin.ipAddress) return <> — <span dir="ltr">{origin.ipAddress}</span></>;
  return null;
}
