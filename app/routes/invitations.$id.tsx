// /invitations/{id}: the page an invitation e-mail links to. Shows the organization, the inviter and the role to
// whoever holds the id, but only the link's secret (?token=) proves the inbox. Signed in as the invitee: accept or
// decline. Signed in as someone else: says so and offers to sign out. Signed out: sign in or create an account
// with the invited address filled in, coming back here afterwards. Expired, canceled or unknown: a clear page.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { acceptInvitation, describeInvitation, rejectInvitation } from "~/auth/organization/invitations.server";
import { getSession, signOut } from "~/auth/session.server";
import { ErrorSummary } from "~/components/forms";
import { intent, runIntent, type IntentResult } from "~/http/organization-actions.server";
import { requestContext } from "~/http/page.server";

export const meta: MetaFunction = () => [{ title: "Invitation · Latchkey" }];

const MAX_TOKEN = 200;

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requestContext(request, context, null);
  const url = new URL(request.url);
  const token = url.searchParams.get("token")?.slice(0, MAX_TOKEN) ?? null;
  const [current, described] = await Promise.all([getSession(ctx), describeInvitation(params.id ?? "", token)]);
  const { state, invitation, linkSecretValid } = described;
  const here = url.pathname + (linkSecretValid && token ? `?token=${encodeURIComponent(token)}` : "");
  return data(
    {
      state,
      invitation,
      // Passed on to accept only when it is this invitation's live secret.
      token: linkSecretValid ? token : null,
      here,
      viewer: current ? { email: current.user.email, isInvitee: invitation?.email === current.user.email.toLowerCase() } : null,
    },
    { status: state === "unknown" ? 404 : 200, headers: ctx.responseHeaders },
  );
}

const tokenField = z.string().max(MAX_TOKEN).optional();

export async function action({ request, context, params }: ActionFunctionArgs) {
  const id = params.id ?? "";
  const outcome = await runIntent(request, context, {
    accept: intent({
      schema: z.object({ token: tokenField }),
      rateLimitAs: "/organization/accept-invitation",
      run: async (value, current) => {
        await acceptInvitation(current!, id, value.token);
        // The organization may be gone by now (deleted in between): the list is then the place to land.
        const { invitation } = await describeInvitation(id, null);
        return { redirect: invitation ? `/organizations/${invitation.organizationSlug}` : "/organizations" };
      },
    }),
    decline: intent({
      schema: z.object({ token: tokenField }),
      rateLimitAs: "/organization/reject-invitation",
      run: async (value, current) => {
        await rejectInvitation(current!, id, value.token);
        return { message: "Invitation declined." };
      },
    }),
    "sign-out": intent({
      schema: z.object({ token: tokenField }),
      rateLimitAs: "/sign-out",
      anonymous: true,
      run: async (value, _current, ctx) => {
        await signOut(ctx);
        return { redirect: `/invitations/${encodeURIComponent(id)}${value.token ? `?token=${encodeURIComponent(value.token)}` : ""}` };
      },
    }),
  });
  if (outcome.kind === "redirect") throw redirect(outcome.location, { headers: outcome.headers });
  return data(outcome.body, { status: outcome.status, headers: outcome.headers });
}

const formatDate = (iso: string) => new Date(iso).toISOString().replace("T", " ").slice(0, 16) + " UTC";

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
  if (last?.intent === "decline" && last.message) {
    return (
      <section>
        <h1>Invitation declined</h1>
        <p>You declined the invitation{invitation ? ` to ${invitation.organizationName}` : ""}.</p>
        <p>
          <Link to="/organizations">Your organizations</Link>
        </p>
      </section>
    );
  }
  if (page.state !== "pending" || !invitation) {
    const [title, text] = GONE[page.state] ?? GONE.unknown;
    return (
      <section>
        <h1>{title}</h1>
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
  return (
    <section>
      <h1>Join {invitation.organizationName}</h1>
      <p>
        {invitation.inviterName || invitation.inviterEmail} ({invitation.inviterEmail}) invited <strong>{invitation.email}</strong> to join{" "}
        <strong>{invitation.organizationName}</strong> as <strong>{invitation.role.split(",").join(", ")}</strong>.
      </p>
      <p className="muted">The invitation is open until {formatDate(invitation.expiresAt)}.</p>
      {last?.error ? <ErrorSummary errors={[last.error]} /> : null}
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
      ) : viewer.isInvitee ? (
        <div className="row-actions">
          <Form method="post" className="inline">
            <input type="hidden" name="intent" value="accept" />
            {token ? <input type="hidden" name="token" value={token} /> : null}
            <button type="submit">Accept invitation</button>
          </Form>
          <Form method="post" className="inline">
            <input type="hidden" name="intent" value="decline" />
            {token ? <input type="hidden" name="token" value={token} /> : null}
            <button type="submit" className="secondary">
              Decline
            </button>
          </Form>
        </div>
      ) : (
        <>
          <p className="warning">
            This invitation is for {invitation.email}, but you are signed in as {viewer.email}.
          </p>
          <Form method="post">
            <input type="hidden" name="intent" value="sign-out" />
            {token ? <input type="hidden" name="token" value={token} /> : null}
            <button type="submit" className="secondary">
              Sign out
            </button>
          </Form>
        </>
      )}
    </section>
  );
}
