// /invitations/{id}: the page an invitation e-mail links to. Shows the organization, the inviter and the role to
// whoever holds the id, but only the link's secret (?token=) proves the inbox. What a signed-in visitor may do is
// the domain's answer (`inviteeStanding`), the same rule accepting enforces: the invitee accepts or declines; an
// invitee whose address is not verified yet is told so, with a way to get the verification mail again; anyone
// else is told whose invitation it is and offered to sign out. Signed out: sign in or create an account with the
// invited address filled in, coming back here afterwards. Expired, canceled or unknown: a clear page.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import type { ReactNode } from "react";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { emailVerificationEnabled, requestVerificationEmail } from "~/auth/account/email-verification.server";
import { acceptInvitation, describeInvitation, inviteeStanding, rejectInvitation } from "~/auth/organization/invitations.server";
import { signOut } from "~/auth/session/sessions.server";
import { FlashMessage } from "~/components/account-sections";
import { DevOutboxLink } from "~/components/dev-outbox-link";
import { ErrorSummary, SubmitButton } from "~/components/forms";
import { IsolatedList } from "~/components/isolated-list";
import { roleName } from "~/components/organization-words";
import { titleTranslator, withErrorTitle } from "~/components/page-title";
import { mayReadLocalOutbox } from "~/email/mailer.server";
import { takeFlashNotice } from "~/http/flash.server";
import { goTo, intent, organizationAction, pageThatPosted, type IntentResult } from "~/http/organization-actions.server";
import { claimNotice, verifyLinkProblem } from "~/http/page-messages.server";
import { endedBy } from "~/auth/account/claim.server";
import { requestContext } from "~/http/page.server";
import { pageSession } from "~/http/page-session.server";
import { isKnownRole, parseRoles } from "~/auth/organization/permissions";
import { daysBetween } from "~/i18n/format";
import { useT } from "~/i18n/react";

/** An invitation that cannot be used (not found, expired, withdrawn) is a failure page: "Error: " and its heading. */
const FAILED_STATES = new Set(["unknown", "expired", "canceled"]);

/** What the page says of an invitation no longer open, by its state: a heading and what to do. */
const GONE: Record<string, { title: string; text: string }> = {
  unknown: { title: "invitation.unknownTitle", text: "invitation.unknownText" },
  expired: { title: "invitation.expiredTitle", text: "invitation.expiredText" },
  canceled: { title: "invitation.canceledTitle", text: "invitation.canceledText" },
  accepted: { title: "invitation.acceptedTitle", text: "invitation.acceptedText" },
  rejected: { title: "invitation.rejectedTitle", text: "invitation.rejectedText" },
};
const gone = (state: string) => GONE[state] ?? GONE.unknown!;

export const meta: MetaFunction<typeof loader> = withErrorTitle(({ data, matches }) => {
  const page = data as { linkProblem?: string | null; state?: string } | undefined;
  const closed = page?.state !== undefined && page.state !== "pending";
  const failed = Boolean(page?.linkProblem) || (closed && FAILED_STATES.has(page.state!));
  const { t } = titleTranslator(matches);
  const title = t(closed ? gone(page.state!).title : "invitation.title");
  return [{ title: `${failed ? t("common.errorPrefix") : ""}${title} · Latchkey` }];
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
      // The page's own moment: the days until the expiry are counted from it alike on the server and in the browser.
      now: new Date().toISOString(),
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

const bdi = (chunks: ReactNode[]) => <bdi>{chunks}</bdi>;
const ltr = (chunks: ReactNode[]) => <span dir="ltr">{chunks}</span>;
const strongLtr = (chunks: ReactNode[]) => (
  <strong className="address" dir="ltr">
    {chunks}
  </strong>
);

export default function InvitationPage() {
  const page = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>() as IntentResult | undefined;
  const { t, rich, said, date, dateTime } = useT();
  const { invitation, viewer, token } = page;
  if (page.state !== "pending" || !invitation) {
    const { title, text } = gone(page.state);
    return (
      <section>
        <h1>{t(title)}</h1>
        <FlashMessage flash={page.flash} />
        {invitation ? <p>{rich("invitation.noLongerOpen", { organization: invitation.organizationName }, { bdi })}</p> : null}
        <p>{t(text)}</p>
        <p>
          <Link to="/">{t("invitation.home")}</Link>
        </p>
      </section>
    );
  }
  const returnTo = encodeURIComponent(page.here);
  const email = encodeURIComponent(invitation.email);
  const tokenInput = token ? <input type="hidden" name="token" value={token} /> : null;
  const expiresAt = new Date(invitation.expiresAt);
  const invited = {
    inviter: invitation.inviterName || invitation.inviterEmail,
    inviterEmail: invitation.inviterEmail,
    email: invitation.email,
    organization: invitation.organizationName,
    role: invitation.role,
    count: invitation.teamNames.length,
    teams: invitation.teamNames.join(", "),
  };
  const tags = {
    who: bdi,
    ltr,
    address: strongLtr,
    org: (chunks: ReactNode[]) => (
      <strong>
        <bdi>{chunks}</bdi>
      </strong>
    ),
    // Built-in roles as the page names them; a custom role is the organization's own word.
    role: () => (
      <IsolatedList
        items={parseRoles(invitation.role)}
        type="unit"
        render={(role) => <strong>{isKnownRole(role) ? roleName(t, role) : <bdi>{role}</bdi>}</strong>}
      />
    ),
    teams: () => (
      <IsolatedList
        items={invitation.teamNames}
        render={(name) => (
          <strong>
            <bdi>{name}</bdi>
          </strong>
        )}
      />
    ),
  };
  // Every form posts to the invitation itself (never with a verification link's `?error=`, which would then
  // come back with the answer).
  return (
    <section>
      <h1>{rich("invitation.join", { organization: invitation.organizationName }, { bdi })}</h1>
      <FlashMessage flash={page.flash} />
      <ErrorSummary errors={[page.linkProblem ? t("invitation.verifyFailed", { problem: said(page.linkProblem) }) : null, last?.error]} />
      <p>
        {invitation.teamNames.length
          ? rich("invitation.invitedToTeams", invited, tags)
          : rich("invitation.invited", invited, tags)}
      </p>
      <p className="muted">
        {rich("invitation.expires", { days: Math.max(0, daysBetween(new Date(page.now), expiresAt)), date: date(expiresAt) }, {
          time: (chunks) => (
            <time dateTime={expiresAt.toISOString()} title={dateTime(expiresAt)}>
              {chunks}
            </time>
          ),
        })}
      </p>
      {!viewer ? (
        <>
          <p>{rich("invitation.signInToAccept", { email: invitation.email }, { ltr })}</p>
          <p className="row-actions">
            <Link className="button" to={`/sign-in?email=${email}&redirectTo=${returnTo}`}>
              {t("invitation.signIn")}
            </Link>
            <Link className="button secondary" to={`/sign-up?email=${email}&redirectTo=${returnTo}`}>
              {t("invitation.signUp")}
            </Link>
          </p>
        </>
      ) : viewer.standing === "may-answer" ? (
        <div className="row-actions">
          <Form method="post" action={page.here} className="inline">
            <input type="hidden" name="intent" value="accept" />
            {tokenInput}
            <button type="submit">{t("invitation.accept")}</button>
          </Form>
          <Form method="post" action={page.here} className="inline">
            <input type="hidden" name="intent" value="decline" />
            {tokenInput}
            <button type="submit" className="secondary">
              {t("invitation.decline")}
            </button>
          </Form>
        </div>
      ) : viewer.standing === "verify-email-first" ? (
        <div className="banner" role="region" aria-labelledby="verify-first-heading">
          <h2 id="verify-first-heading">{t("invitation.verifyFirst")}</h2>
          <p>{rich("invitation.verifyWhy", { email: viewer.email }, { address: strongLtr })}</p>
          {page.mayResendVerification ? (
            <>
              <p>
                {t("invitation.followVerification")}
                <DevOutboxLink show={page.outbox} />
              </p>
              <Form method="post" action={page.here}>
                <input type="hidden" name="intent" value="resend-verification" />
                <SubmitButton className="secondary">{t("invitation.resend")}</SubmitButton>
              </Form>
            </>
          ) : (
            <p>
              {rich("invitation.openFromMail", { email: invitation.email }, { ltr })}
              <DevOutboxLink show={page.outbox} />
            </p>
          )}
        </div>
      ) : (
        <>
          <p className="warning">{rich("invitation.notYours", { email: invitation.email, viewer: viewer.email }, { ltr })}</p>
          <Form method="post" action={page.here}>
            <input type="hidden" name="intent" value="sign-out" />
            {tokenInput}
            <button type="submit" className="secondary">
              {/* One piece: a button lays out its children side by side. */}
              <span>{rich("invitation.switch", { email: invitation.email }, { ltr })}</span>
            </button>
          </Form>
        </>
      )}
    </section>
  );
}
