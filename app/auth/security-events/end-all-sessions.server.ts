// "This wasn't me — sign out everywhere" (POST /end-all-sessions, the activity page; ADR 048): every session of
// the account ends, this one too (each instance's session cache hears it through the change feed), every known
// device and trusted device is forgotten, what applications hold ends (ADR 055), the event is recorded — all in
// one transaction — and the owner is mailed: with a reset link when the account has a password (ADR 065). No
// fresh-session rule: the point is to act fast.
import { hasPassword, mailResetLinkTo } from "~/auth/account/password-flows.server";
import { absoluteUrl, PAGES } from "~/auth/core/links.server";
import { revokeWaysIn } from "~/auth/account/revocation.server";
import type { RequestContext } from "~/auth/request-context.server";
import { recordSecurityEvent } from "~/auth/security-events/record.server";
import { clearSessionCookies } from "~/auth/session/sessions.server";
import { forgetThisDevice } from "~/auth/two-factor/trusted-device.server";
import { afterResponse } from "~/background-work.server";
import { db } from "~/db.server";
import { sendMail } from "~/email/mailer.server";
import { emails } from "~/email/templates.server";

/** Whose sessions end, and from where: a signed-in session, or a mailed link's page (no session of its own). */
export interface EndAllSessionsBy {
  user: { id: string; email: string };
  session?: { id: string } | null;
  /** What else the event says happened (e.g. the change of address refused from its confirmation page). */
  details?: Record<string, string | boolean>;
}

export async function endAllSessions(ctx: RequestContext, current: EndAllSessionsBy): Promise<{ status: true; resetLinkMailed: boolean }> {
  const userId = current.user.id;
  const withPassword = await hasPassword(userId);
  await db.$transaction(async (tx) => {
    // Through the one revocation (ADR 055): every session (the change feed tells every instance's session cache),
    // every sign-in in flight, what applications hold and the consents given to them (a thief's among them), and
    // every browser's device cookie (the next sign-in from any of them is a new device, ADR 039).
    const revoked = await revokeWaysIn(tx, userId, { sessions: "all", knownDevices: true, applications: "tokens-and-consents" });
    // Trusted devices are forgotten by this event itself: their fingerprint names the latest one.
    await recordSecurityEvent(tx, {
      userId,
      type: "sessions_ended_by_owner",
      ctx,
      sessionId: current.session?.id ?? null,
      details: { sessionsEnded: revoked.sessions, applicationsEnded: revoked.consents, resetLinkMailed: withPassword, ...current.details },
    });
  });
  clearSessionCookies(ctx);
  forgetThisDevice(ctx);
  // Whoever else knows the password can sign in again: the owner gets a link to choose a new one. After the
  // answer, whatever the per-recipient cap says (a notice of its own kind).
  // Its own mail (issue 41): what just happened, and that the old password works until a new one is chosen.
  const done = { at: new Date(), emailChangeRefused: typeof current.details?.emailChangeRefused === "string" ? current.details.emailChangeRefused : undefined };
  const compose = (url: string, ttl: number) => emails.signedOutEverywhere(current.user.email, url, ttl, done);
  if (withPassword) afterResponse(() => mailResetLinkTo(current.user, undefined, { securityNotice: true }, compose));
  else afterResponse(() => sendMail(emails.signedOutEverywhereWithoutPassword(current.user.email, absoluteUrl(PAGES.signIn), done), { securityNotice: true }));
  return { status: true, resetLinkMailed: withPassword };
}
