// /invitations/{id}: the page an invitation e-mail links to. Shows the organization, the inviter and the role to
// whoever holds the id, but only the link's secret (?token=) proves the inbox. What a signed-in visitor may do is
// the domain's answer (`inviteeStanding`), the same rule accepting enforces: the invitee accepts or declines; an
// invitee whose address is not verified yet is told so, with a way to get the verification mail again; anyone
// else is told whose invitation it is and offered to sign out. Signed out: sign in or create an account with the
// invited address filled in, coming back here afterwards. Expired, canceled or unknown: a clear page.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { emailVerificationEnabled, requestVerificationEmail } from "~/auth/account/email-verification.server";
import { acceptInvitation, describeInvitation, inviteeStanding, rejectInvitation } from "~/auth/organization/invitations.server";
import { signOut } from "~/auth/session/sessions.server";
import { FlashMessage } from "~/components/account-sections";
import { DevOutboxLink } from "~/components/dev-outbox-link";
import { ERROR_TITLE_PREFIX, ErrorSummary, SubmitButton } from "~/components/forms";
import { withErrorTitle } from "~/components/page-title";
import { mayReadLocalOutbox } from "~/email/mailer.server";
import { takeFlashNotice } from "~/http/flash.server";
import { goTo, intent, organizationAction, pageThatPosted, type IntentResult } from "~/http/organization-actions.server";
import { claimNotice, verifyLinkProblem } from "~/http/page-messages.server";
import { endedBy } from "~/auth/account/claim.server";
import { requestContext } from "~/http/page.server";
import { pageSession } from "~/http/page-session.server";
import { describeRole } from "~/auth/organization/permissions";
import { expiryWords } from "~/components/time";

/** An invitation that cannot be used (not found, expired, withdrawn) is a failure page: "Error: " and its heading. */
const FAILED_STATES = new Set(["unknown", "expired", "canceled"]);

export const meta: MetaFunction<typeof loader> = withErrorTitle(({ data }) => {
  const page = data as { linkProblem?: string | null; state?: string } | undefined;
  const closed = page?.state !== undefined && page.state !== "pending";
  const failed = Boolean(page?.linkProblem) || (closed && FAILED_STATES.has(page.state!));
  const title = closed ? (GONE[page.state!] ?? GONE.unknown)[0] : "Invitation";
  return [{ title: `${failed ? ERROR_TITLE_PREFIX : ""}${title} · Latchkey` }];
});

const MAX_TOKEN = 200;

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requestContext(request, context, null);
  const url = new URL(request.url);
  const token = url.searchParams.get("token")?.slice(0, MAX_TOKEN) ?? null;
  const [current, described] = await Promise.all([pageSession(ctx, context), describeInvitation(params.id ?? "", token)]);
  const { state, invitation, linkSecretValid } = described;
  const here = url.pathname + (linkSecretValid && token ? `?token=${encodeURIComponent(token)}` : "");
  const standing = current && invitation && state === "pending" ? (await inviteeStanding(current.user, invitation, token)).standing : null;
  return data(
    {
      state,
      invitation,
      // In the reader's words, worked out here so the page without JavaScript reads the same.
      expiresIn: invitation ? expiryWords(new Date(invitation.expiresAt)) : null,
      // Passed on to accept only when it is this invitation's live secret.
      token: linkSecretValid ? token : null,
      here,
      viewer: current ? { email: current.user.email, standing } : null,
      mayResendVerification: standing === "verify-email-first" && emailVerificationEnabled(),
      outbox: standing === "verify-email-first" && mayReadLocalOutbox(request, context.peerAddress),
      flash: takeFlashNotice(request, ctx.responseHeaders),
      // A verification link sent from here comes back here; `?error=` says why it did not work.
      linkProblem: verifyLinkProblem(url.searchParams.get("error")),
    },
    { status: state === "unknown" ? 404 : 200, headers: ctx.responseHeaders },
  );
}

const tokenField = z.string().max(MAX_TOKEN).optional();

export async function action({ request, context, params }: ActionFunctionArgs) {
  const id = params.id ?? "";
  return organizationAction({ request, context }, {
    accept: intent({
      schema: z.object({ token: tokenField }),
      rateLimitAs: "/organization/accept-invitation",
      session: "required",
      refusalShown: "page",
      run: async (value, current, ctx) => {
        await acceptInvitation(current, id, value.token, ctx);
        // The organization may be gone by now (deleted in between): the list is then the place to land.
        const { invitation } = await describeInvitation(id, null);
        // The link's secret claimed a never-proven account (ADR 028): signed out now, told what ended and why.
        const ended = endedBy(ctx);
        const claim = ended ? claimNotice(ended, "signed-out") : null;
        if (claim) {
          const joined = invitation ? `You joined ${invitation.organizationName}.` : "You accepted the invitation.";
          return goTo("/sign-in", `${joined} ${claim.text}`, claim.link ? { link: claim.link } : {});
        }
        if (!invitation) return goTo("/organizations");
        return goTo(`/organizations/${invitation.organizationSlug}`, `You joined ${invitation.organizationName}.`);
      },
    }),
    decline: intent({
      schema: z.object({ token: tokenField }),
      rateLimitAs: "/organization/reject-invitation",
      session: "required",
      refusalShown: "page",
      run: async (value, current) => {
        await rejectInvitation(current, id, value.token);
        const { invitation } = await describeInvitation(id, null);
        return goTo("/organizations", `You declined the invitation${invitation ? ` to ${invitation.organizationName}` : ""}.`);
      },
    }),
    "resend-verification": intent({
      schema: z.object({}),
      rateLimitAs: "/send-verification-email",
      session: "required",
      refusalShown: "page",
      run: async (_value, current, ctx) => {
        await requestVerificationEmail(ctx, { email: current.user.email, callbackURL: `/invitations/${encodeURIComponent(id)}` });
        return goTo(pageThatPosted(ctx.request), `We sent a verification link to ${current.user.email}. Follow it, then accept the invitation here.`);
      },
    }),
    "sign-out": intent({
      schema: z.object({ token: tokenField }),
      rateLimitAs: "/sign-out",
      session: "none",
      refusalShown: "page",
      run: async (value, _current, ctx) => {
        await signOut(ctx);
        const query = value.token ? `?token=${encodeURIComponent(value.token)}` : "";
        return goTo(`/invitations/${encodeURIComponent(id)}${query}`, "You are signed out.");
      },
    }),
  });
}

const GONE: Record<string, [string, string]> = {
  unknown: ["Invitation not found", "This invitation does not exist. The link may be incomplete; ask for a new invitation."],
  expired: ["This invitation has expired", "Ask someone in the organization to invite you again."],
  canceled: ["This invitation was withdrawn", "It was canceled by the organization. Ask them to invite you again if you still want to join."],
  accepted: ["This invitation was already accepted", "It has been used. If it was you, the organization is in your list."],
  rejected: ["This invitation was declined", "Ask the organization for a new invitation if you changed your mind."],
};

export default function InvitationPage() {
  const page = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>() as IntentResult | undefined;
  const { invitation, viewer, token } = page;
  if (page.state !== "pending" || !invitation) {
    const [title, text] = GONE[page.state] ?? GONE.unknown;
    return (
      <section>
        <h1>{title}</h1>
        <FlashMessage flash={page.flash} />
        {invitation ? <p>The invitation to {invitation.organizationName} is no longer open.</p> : null}
        <p>{text}</p>
        <p>
          <Link to="/">Home</Link>
        </p>
      </section>
    );
  }
  const returnTo = encodeURIComponent(page.here);
  const email = encodeURIComponent(invitation.email);
  const tokenInput = token ? <input type="hidden" name="token" value={token} /> : null;
  // Every form posts to the invitation itself (never with a verification link's `?error=`, which would then
  // come back with the answer).
  return (
    <section>
      <h1>Join {invitation.organizationName}</h1>
      <FlashMessage flash={page.flash} />
      <ErrorSummary errors={[page.linkProblem ? `We could not verify your email address. ${page.linkProblem}` : null, last?.error]} />
      <p>
        {invitation.inviterName || invitation.inviterEmail} ({invitation.inviterEmail}) invited <strong>{invitation.email}</strong> to join{" "}
        <strong>{invitation.organizationName}</strong> as <strong>{describeRole(invitation.role)}</strong>
        {invitation.teamNames.length ? (
          <>
            , in the {invitation.teamNames.length === 1 ? "team" : "teams"}{" "}
            {invitation.teamNames.map((name, i) => (
              <span key={i}>
                {i > 0 ? ", " : ""}
                <strong>{name}</strong>
              </span>
            ))}
          </>
        ) : null}
        .
      </p>
      <p className="muted">
        The invitation expires <time dateTime={new Date(invitation.expiresAt).toISOString()}>{page.expiresIn}</time>.
      </p>
      {!viewer ? (
        <>
          <p>Sign in or create an account with {invitation.email} to accept.</p>
          <p className="row-actions">
            <Link className="button" to={`/sign-in?email=${email}&redirectTo=${returnTo}`}>
              Sign in to accept
            </Link>
            <Link className="button secondary" to={`/sign-up?email=${email}&redirectTo=${returnTo}`}>
              Create an account to accept
            </Link>
          </p>
        </>
      ) : viewer.standing === "may-answer" ? (
        <div className="row-actions">
          <Form method="post" action={page.here} className="inline">
            <input type="hidden" name="intent" value="accept" />
            {tokenInput}
            <button type="submit">Accept invitation</button>
          </Form>
          <Form method="post" action={page.here} className="inline">
            <input type="hidden" name="intent" value="decline" />
            {tokenInput}
            <button type="submit" className="secondary">
              Decline
            </button>
          </Form>
        </div>
      ) : viewer.standing === "verify-email-first" ? (
        <div className="banner" role="region" aria-labelledby="verify-first-heading">
          <h2 id="verify-first-heading">Verify your email address first</h2>
          <p>
            Anyone can sign up with any address, so before you can accept or decline we need to know that{" "}
            <strong className="address">{viewer.email}</strong> is yours.
          </p>
          {page.mayResendVerification ? (
            <>
              <p>
                Follow the link in the verification email we sent you; it brings you back here. Opening this invitation from the link in the
                invitation email works too.
                <DevOutboxLink show={page.outbox} />
              </p>
              <Form method="post" action={page.here}>
                <input type="hidden" name="intent" value="resend-verification" />
                <SubmitButton className="secondary">Resend verification email</SubmitButton>
              </Form>
            </>
          ) : (
            <p>
              Open this invitation from the link in the invitation email sent to {invitation.email}: following it proves the address is
              yours.
              <DevOutboxLink show={page.outbox} />
            </p>
          )}
        </div>
      ) : (
        <>
          <p className="warning">
            This invitation is for {invitation.email}, but you are signed in as {viewer.email}.
          </p>
          <Form method="post" action={page.here}>
            <input type="hidden" name="intent" value="sign-out" />
            {tokenInput}
            <button type="submit" className="secondary">
              Sign out and sign in as {invitation.email}
            </button>
          </Form>
        </>
      )}
    </section>
  );
}
