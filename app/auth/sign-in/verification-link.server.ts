// The e-mail verification link: the setting, making and mailing the link, and binding it to the browser that
// asked for it. A leaf both the first-factor door (which mails it to an unverified address) and following the link
// (app/auth/account/email-verification.server.ts, which signs in through the door) import.
import { isSignUpBrowserOf, setSignedCookie, SIGN_UP_BROWSER_COOKIE, SIGN_UP_BROWSER_PURPOSE } from "~/auth/core/cookies.server";
import { absoluteUrl, PAGES } from "~/auth/core/links.server";
import type { RequestContext } from "~/auth/request-context.server";
import { mailToken } from "~/auth/verification.server";
import type { User } from "~/db.server";
import { emails } from "~/email/templates.server";
import { env } from "~/env.server";

export const emailVerificationEnabled = () => env.AUTH_EMAIL_VERIFICATION !== "off";
export const emailVerificationRequired = () => env.AUTH_EMAIL_VERIFICATION === "required";

export function verifyEmailLink(token: string, callbackURL: string | undefined): string {
  const query = new URLSearchParams({ token, callbackURL: callbackURL || PAGES.emailVerified });
  return absoluteUrl(`/api/auth/verify-email?${query}`);
}

/** What a verification link's signed token carries. */
export interface VerificationPayload {
  userId: string;
  email: string;
}

function verificationTokenFor(user: Pick<User, "id" | "email">) {
  const payload: VerificationPayload = { userId: user.id, email: user.email };
  return { payload, options: { ttlSeconds: env.AUTH_EMAIL_VERIFICATION_TTL, signed: true } };
}

const verificationMail = (user: Pick<User, "email">, token: string, callbackURL?: string) =>
  emails.verifyEmail(user.email, verifyEmailLink(token, callbackURL), env.AUTH_EMAIL_VERIFICATION_TTL);

/**
 * Marks this browser as the one that signed up (or proved the password while unverified). A verification link
 * signs in only in that browser: opened anywhere else it verifies the address and leaves that browser signed
 * out, so mailing someone the link to one's own account cannot sign their browser into it (login CSRF).
 */
export function bindVerificationToBrowser(ctx: RequestContext, userId: string): void {
  setSignedCookie(ctx, SIGN_UP_BROWSER_COOKIE, userId, SIGN_UP_BROWSER_PURPOSE, env.AUTH_EMAIL_VERIFICATION_TTL);
}

/** Whether this browser is the one `bindVerificationToBrowser` marked for this user. */
export function isSignUpBrowser(ctx: RequestContext, userId: string): boolean {
  return isSignUpBrowserOf(ctx.request, userId);
}

/** Sends a verification link now; a failed send withdraws it and reports FAILED_TO_SEND_EMAIL. */
export async function sendVerificationNow(user: Pick<User, "id" | "email">, callbackURL?: string): Promise<void> {
  const { payload, options } = verificationTokenFor(user);
  await mailToken("email-verification", payload, options, (token) => verificationMail(user, token, callbackURL));
}

/** Sends a verification link without making the caller wait or fail (sign-up, change of address). */
export function sendVerificationInBackground(user: Pick<User, "id" | "email">, callbackURL?: string): void {
  sendVerificationNow(user, callbackURL).catch(() => {
    // already logged by the mailer
  });
}
