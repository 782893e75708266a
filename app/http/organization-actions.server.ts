// Form actions of the organization pages (/organizations, /organizations/{slug}, /invitations/{id}): intents of
// the page pipeline (page-action.server.ts), calling the same domain functions as the JSON API. A refusal comes
// back as the intent's form errors, with the row it was about (a member's or an invitation's id); a success is a
// post/redirect/get, to the page that posted unless the intent names another, with its confirmation as a
// one-time message the page shows focused at its top (docs/decisions/013).
import type { AppLoadContext } from "@remix-run/node";
import type { SubmissionResult } from "@conform-to/react";
import { answerIntent, pageAction, type PageIntent } from "~/http/page-action.server";

export { goTo, intent, pageThatPosted } from "~/http/page-action.server";

export interface IntentResult {
  intent: string | null;
  /** Which row a row-level form was about (a member's or an invitation's id). */
  target?: string | null;
  result?: SubmissionResult<string[]>;
  error?: string;
}

export async function organizationAction(
  args: { request: Request; context: AppLoadContext },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each intent has its own schema
  intents: Record<string, PageIntent<any, any, any>>,
) {
  const outcome = await pageAction(args, intents, { unknownRateLimitAs: "/organization/unknown" });
  return answerIntent(outcome, { target: outcome.form.get("memberId") ?? outcome.form.get("invitationId") });
}
