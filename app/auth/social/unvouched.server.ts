// A provider identity whose address the provider does not vouch for (docs/decisions/028-claim-on-proof.md, as
// amended by issue 37): `email_verified` false or absent, or a provider that never says (Facebook, Spotify,
// Twitch). Anyone can type any address at such a provider, so the address may start a new account, which stays
// unverified and never proven until its inbox is proven (and the first proof by anyone else claims it, like any
// other unproven setup), but it never joins an account that already has the address.
import { newId } from "~/auth/core/crypto.server";
import { absoluteUrl } from "~/auth/core/links.server";
import { AuthError } from "~/auth/errors";
import type { RequestContext } from "~/auth/request-context.server";
import { deviceIdOf } from "~/auth/sign-in/known-device.server";
import {
  bindVerificationToBrowser,
  emailVerificationEnabled,
  emailVerificationRequired,
  sendVerificationInBackground,
} from "~/auth/sign-in/verification-link.server";
import type { User } from "~/db.server";
import { sendMail } from "~/email/mailer.server";
import { emails } from "~/email/templates.server";

/**
 * A new account from an unvouched address gets what a password sign-up of an unverified account gets: the usual
 * verification mail here, and the sign-up browser binding from the first-factor door it goes through next
 * (whoever proves the inbox in this browser set the account up and keeps the provider link, ADR 028's exception).
 * With verification `required` the door mails the link along with its refusal: one mail, not two.
 */
export function welcomeUnverified(user: Pick<User, "id" | "email">): void {
  if (emailVerificationEnabled() && !emailVerificationRequired()) sendVerificationInBackground(user);
}

/**
 * An unvouched address that already has an account: nothing is created or linked. With verification `required`
 * a password sign-up answers a taken address exactly as a new one (no account is revealed), so this does the
 * same: the refusal, the cookies and the one mail a new account gets (the mail going to the owner, telling them
 * somebody tried). Otherwise sign-up already answers USER_ALREADY_EXISTS, so `account not linked` tells nothing
 * new, and it tells the person the way on: sign in to that account and link the provider from there.
 */
export function refuseToJoin(ctx: RequestContext, email: string): never {
  if (emailVerificationRequired()) {
    bindVerificationToBrowser(ctx, newId());
    deviceIdOf(ctx);
    sendMail(emails.signUpAttempt(email, absoluteUrl(`/sign-in?${new URLSearchParams({ email })}`))).catch(() => {
      // already logged by the mailer
    });
    throw new AuthError("EMAIL_NOT_VERIFIED");
  }
  throw new AuthError("ACCOUNT_NOT_LINKED");
}
