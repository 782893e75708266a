// The last step of every return from an identity provider — a social provider's /callback, an organization's
// IdP's /sso/callback and its SAML assertion consumer service: the landing page is told what a claim ended
// (ADR 028: the provider's word claimed a never-proven account), and the browser is sent on. Never an error body.
import { endedBy } from "~/auth/account/claim.server";
import type { RequestContext } from "~/auth/request-context.server";
import { setFlash } from "~/http/flash.server";
import { claimNotice } from "~/http/page-messages.server";

/** The redirect to `location` (302 after a GET, 303 after the IdP's form post), with the claim notice if any. */
export function landAfterProvider(ctx: RequestContext, location: string, status: 302 | 303 = 302): Response {
  const ended = endedBy(ctx);
  const claim = ended ? claimNotice(ended, "signed-in") : null;
  if (claim) setFlash(ctx.responseHeaders, claim.text, claim.link ? { link: claim.link } : {});
  ctx.responseHeaders.set("Location", location);
  ctx.responseHeaders.set("Cache-Control", "no-store");
  return new Response(null, { status, headers: ctx.responseHeaders });
}
