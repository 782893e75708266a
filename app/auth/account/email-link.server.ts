// A mailed verification or change-of-address link, opened outside the account's own browser (issue 37): mail
// scanners, link previews and the person's other devices all open links, and a GET must not change an account.
// The link's page shows what it will do and asks; the answers given there are here. The link itself acts by GET
// only in the account's own browser (email-verification.server.ts, `verifyEmailToken`).
//
// A never-proven account (ADR 028) asks one more question, since the first proof of its inbox would otherwise
// end everything set up before it: "That was me" (the person signs in with a way in the account already has, so
// nothing ends) or "I didn't create this account" (the claim).
import { readEmailLink, emailLinkIsLive, verifyEmailErrorValue, verifyEmailToken, type ChangeEmailPayload } from "~/auth/account/email-verification.server";
import { hasPassword } from "~/auth/account/password-flows.server";
import { AuthError } from "~/auth/errors";
import type { RequestContext } from "~/auth/request-context.server";
import { endAllSessions } from "~/auth/security-events/end-all-sessions.server";
import { verifyCredentials } from "~/auth/sign-in/credentials.server";
import { finishFirstFactor, type FirstFactorOutcome } from "~/auth/sign-in/first-factor.server";
import { consumeToken, revokeTokens } from "~/auth/verification.server";
import { db, type User } from "~/db.server";

/** What the page says about the account's beginning, and which ways in "That was me" can use. */
export interface CreatorQuestion {
  createdAt: string;
  /** "Chrome on Linux", from the account's first security event, when it came with the sign-up. */
  device: string | null;
  password: boolean;
  passkeys: boolean;
}

export type EmailLinkView =
  /** `error`: the verify-email redirect's value (spec §8: token_expired, invalid_token, user_not_found, unauthorized). */
  | { state: "unusable"; error: string }
  | { state: "verified"; email: string }
  | { state: "verify"; email: string; ownBrowser: boolean; creator: CreatorQuestion | null }
  | { state: "change"; email: string; newEmail: string; ownBrowser: boolean };

/** A sign-up's first event comes with it; one much later says nothing about where the account was made. */
const SIGN_UP_EVENT_WINDOW_MS = 10 * 60 * 1000;

async function creatorQuestion(user: User): Promise<CreatorQuestion> {
  const [first, password, passkeys] = await Promise.all([
    db.securityEvent.findFirst({
      where: { userId: user.id, createdAt: { lte: new Date(user.createdAt.getTime() + SIGN_UP_EVENT_WINDOW_MS) } },
      orderBy: { createdAt: "asc" },
      select: { device: true },
    }),
    hasPassword(user.id),
    db.passkey.count({ where: { userId: user.id } }),
  ]);
  return { createdAt: user.createdAt.toISOString(), device: first?.device ?? null, password, passkeys: passkeys > 0 };
}

/** What the link will do, for the page that asks before it happens. Reads only: nothing is used up. */
export async function describeEmailLink(ctx: RequestContext, token: string): Promise<EmailLinkView> {
  try {
    const { payload, user, ownBrowser, changesAccount } = await readEmailLink(ctx, token);
    if (!changesAccount) return { state: "verified", email: user.email };
    if (!(await emailLinkIsLive(payload))) return { state: "unusable", error: "invalid_token" };
    if (payload.purpose === "change-email") {
      return { state: "change", email: user.email, newEmail: (payload as unknown as ChangeEmailPayload).newEmail, ownBrowser };
    }
    // The claim's condition (claim.server.ts): the address unverified and no address of the account ever proven.
    const asks = !ownBrowser && user.inboxProvenAt === null;
    return { state: "verify", email: user.email, ownBrowser, creator: asks ? await creatorQuestion(user) : null };
  } catch (error) {
    if (error instanceof AuthError) return { state: "unusable", error: verifyEmailErrorValue(error) };
    throw error;
  }
}

/**
 * "That was me": the account's own password proves its creator, so the address is verified and nothing they set
 * up ends; then this browser signs in through the first-factor door (two-factor asks its second step). A wrong
 * password is the sign-in's 401, after the same work, recorded for the owner.
 */
export async function confirmAsCreatorWithPassword(
  ctx: RequestContext,
  input: { token: string; password: string },
): Promise<{ email: string; outcome: FirstFactorOutcome }> {
  const { payload, user } = await readEmailLink(ctx, input.token);
  if (payload.purpose !== "email-verification") throw new AuthError("INVALID_TOKEN");
  const proven = await verifyCredentials(ctx, user.email, input.password);
  if (proven.id !== user.id) throw new AuthError("INVALID_EMAIL_OR_PASSWORD");
  await verifyEmailToken(ctx, input.token, { confirmed: true, byCreator: true });
  const verified = await db.user.findUniqueOrThrow({ where: { id: user.id } });
  // The session starts only if the password checked above is still the account's (ADR 055): a reset or claim
  // between the check and the session moves the version read with the password, and the door refuses.
  const asChecked = { ...verified, credentialsVersion: proven.credentialsVersion };
  return { email: verified.email, outcome: await finishFirstFactor(ctx, asChecked, { method: "password", inboxProven: true }) };
}

/**
 * "This wasn't me" on a change-of-address link: the change is cancelled (this link and every other pending change
 * of the account end) and every session of the account ends, as the activity page's "This wasn't me" does (ADR
 * 048: the event, and a mail with a reset link). A stolen session can then no longer move the account even when
 * a scanner has opened the mail. Of this answer and "Confirm", whichever uses the link up first wins.
 */
export async function refuseEmailChange(ctx: RequestContext, token: string) {
  const { payload, user } = await readEmailLink(ctx, token);
  if (payload.purpose !== "change-email") throw new AuthError("INVALID_TOKEN");
  const change = await consumeToken<ChangeEmailPayload>("change-email", token, { signed: true });
  await revokeTokens("change-email", user.id);
  const ended = await endAllSessions(ctx, { user, details: { emailChangeRefused: change.newEmail } });
  return { ...ended, email: user.email, newEmail: change.newEmail };
}
