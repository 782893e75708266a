// GET /verify-email?token&callbackURL: redirects to callbackURL (with ?error= on failure), or answers JSON. When the
// link signs in a user with two-factor on, the JSON answer also carries `twoFactorRedirect` and the redirect goes to
// the two-factor page first (ADR 027). A browser opening a link without callbackURL (a mail client cut the link's
// tail, or a client sent one without) lands on the /email-verified page as the whole link would have: only a
// client asking for JSON gets Better Auth's JSON answer (ADR 011).
import { z } from "zod";
import { AuthError } from "~/auth/errors";
import { emailVerificationEnabled, verifyEmailErrorValue, verifyEmailToken } from "~/auth/account/email-verification.server";
import { PAGES, withQuery } from "~/auth/core/links.server";
import { twoFactorPage } from "~/auth/username/identifier.server";
import { wantsPage } from "~/http/accept.server";
import { endpoint, found, json, optionalUrl } from "~/http/endpoint.server";
import { setFlash } from "~/http/flash.server";
import { claimNotice } from "~/http/page-messages.server";
import { endedBy } from "~/auth/account/claim.server";

/** What the landing page says (the JSON answer is unchanged): a change link leaves the new address unverified. */
const verifiedMessage = (user: { email: string; emailVerified: boolean }) =>
  user.emailVerified
    ? `Your email address ${user.email} is verified.`
    : emailVerificationEnabled()
      ? `Change confirmed: your email address is now ${user.email}. We sent a verification link to it; follow that link to verify it.`
      : `Change confirmed: your email address is now ${user.email}.`;

/** Without a callbackURL a failed link is a 401, as in Better Auth (1.3 and 1.7 alike). */
const LINK_FAILURES = new Set(["INVALID_TOKEN", "TOKEN_EXPIRED", "USER_NOT_FOUND", "UNAUTHORIZED"]);

export const { loader, action } = endpoint({
  method: "GET",
  changesState: true,
  landingPage: PAGES.emailVerified,
  query: z.object({ token: z.string().default(""), callbackURL: optionalUrl }),
  handler: async ({ query, ctx }) => {
    const callbackURL = query.callbackURL || (wantsPage(ctx.request) ? PAGES.emailVerified : undefined);
    try {
      const result = await verifyEmailToken(ctx, query.token);
      if (!callbackURL) return result;
      // When the link claimed a never-proven account (ADR 028), the page says what ended; this browser is
      // signed out then (a link signs in only the browser that signed up, which never claims).
      const ended = endedBy(ctx);
      const claim = ended ? claimNotice(ended, "signed-out") : null;
      setFlash(ctx.responseHeaders, claim ? `${verifiedMessage(result.user)} ${claim.text}` : verifiedMessage(result.user), claim?.link ? { link: claim.link } : {});
      if ("twoFactorRedirect" in result) return found(withQuery(twoFactorPage(new URL(withQuery(callbackURL, {})).pathname), {}));
      return found(callbackURL);
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      if (!callbackURL) {
        if (LINK_FAILURES.has(error.code)) return json(error.toJSON(), { status: 401 });
        throw error;
      }
      return found(withQuery(callbackURL, { error: verifyEmailErrorValue(error) }));
    }
  },
});
