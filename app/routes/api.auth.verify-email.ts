// GET /verify-email?token&callbackURL: the mailed link. In the account's own browser (signed in to it, or the one
// that signed up) it acts at once as in Better Auth: redirects to callbackURL (with ?error= on failure), or
// answers JSON; when it signs in a user with two-factor on, the JSON answer also carries `twoFactorRedirect` and
// the redirect goes to the two-factor page first (ADR 027). Anywhere else (another device, a mail scanner) it
// changes nothing: a browser, or any client given a callbackURL, is sent to the link's page, which asks; a JSON
// client without one gets 403 LINK_NEEDS_CONFIRMATION (issue 37, ADR 011).
// POST /verify-email {token, callbackURL?}: the same link confirmed by a person (the page's button, or a client).
// A browser opening a link without callbackURL (a mail client cut the link's tail) lands on the /email-verified
// page as the whole link would have: only a client asking for JSON gets the JSON answer (ADR 011).
import { z } from "zod";
import { AuthError } from "~/auth/errors";
import { verifyEmailErrorValue, verifyEmailToken, type LinkUse } from "~/auth/account/email-verification.server";
import { PAGES, withQuery } from "~/auth/core/links.server";
import type { RequestContext } from "~/auth/request-context.server";
import { twoFactorPage } from "~/auth/username/identifier.server";
import { wantsPage } from "~/http/accept.server";
import { endpoint, found, json, optionalUrl } from "~/http/endpoint.server";
import { setFlash } from "~/http/flash.server";
import { emailLinkOutcome } from "~/http/page-messages.server";

/** Without a callbackURL a failed link is a 401, as in Better Auth (1.3 and 1.7 alike). */
const LINK_FAILURES = new Set(["INVALID_TOKEN", "TOKEN_EXPIRED", "USER_NOT_FOUND", "UNAUTHORIZED"]);

const linkFields = { token: z.string().default(""), callbackURL: optionalUrl };

async function useLink(ctx: RequestContext, input: { token: string; callbackURL?: string }, use: LinkUse) {
  const callbackURL = input.callbackURL || (wantsPage(ctx.request) ? PAGES.emailVerified : undefined);
  try {
    const result = await verifyEmailToken(ctx, input.token, use);
    if (!callbackURL) return result;
    // When the link claimed a never-proven account (ADR 028), the page says what ended.
    const { text, ...extra } = emailLinkOutcome(ctx, result.user);
    setFlash(ctx.responseHeaders, text, extra);
    if ("twoFactorRedirect" in result) return found(withQuery(twoFactorPage(new URL(withQuery(callbackURL, {})).pathname), {}));
    return found(callbackURL);
  } catch (error) {
    if (!(error instanceof AuthError)) throw error;
    if (error.code === "LINK_NEEDS_CONFIRMATION" && callbackURL) {
      // The page asks the person; it carries the callbackURL on to where the click will land.
      return found(withQuery(PAGES.confirmEmail, { token: input.token, ...(input.callbackURL ? { callbackURL: input.callbackURL } : {}) }));
    }
    if (!callbackURL) {
      if (LINK_FAILURES.has(error.code)) return json(error.toJSON(), { status: 401 });
      throw error;
    }
    return found(withQuery(callbackURL, { error: verifyEmailErrorValue(error) }));
  }
}

const opened = endpoint({
  method: "GET",
  changesState: true,
  landingPage: PAGES.emailVerified,
  query: z.object(linkFields),
  handler: ({ query, ctx }) => useLink(ctx, query, {}),
});

const confirmed = endpoint({
  method: "POST",
  body: z.object(linkFields),
  handler: ({ body, ctx }) => useLink(ctx, body, { confirmed: true }),
});

export const loader = opened.loader;
export const action = confirmed.action;
