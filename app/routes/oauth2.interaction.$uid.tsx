// An application's sign-in request, from the person's side: sign in (Latchkey's own /sign-in, which comes back
// here), then allow or deny what the application asks for. Everything is decided in
// app/auth/oidc-provider/interaction.server.ts; the answers go back to the provider as whole-page navigations
// (redirectDocument, reloadDocument), since its addresses are not Remix routes.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect, redirectDocument } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { answerConsent, interactionStep } from "~/auth/oidc-provider/interaction.server";
import { describeScopes } from "~/auth/oidc-provider/scopes";
import { INTERACTION_PAGE } from "~/auth/oidc-provider/constants";
import { requestContext } from "~/auth/request-context.server";
import { signOut } from "~/auth/session/sessions.server";
import { ERROR_TITLE_PREFIX, ErrorSummary, SubmitButton } from "~/components/forms";
import { withErrorTitle } from "~/components/page-title";
import { answerIntent, goTo, intent, pageAction } from "~/http/page-action.server";
import { pageSession } from "~/http/page-session.server";

// A failure page says so first, in words of its own (issue 41): "Error: This request has expired".
export const meta: MetaFunction = withErrorTitle(({ data }) => {
  const step = (data as { step?: string } | undefined)?.step;
  const title = step === "expired" ? `${ERROR_TITLE_PREFIX}This request has expired` : step === "impersonating" ? `${ERROR_TITLE_PREFIX}Allow access` : "Allow access";
  return [{ title: `${title} · Latchkey` }];
});

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = await requestContext(request, context, null);
  const current = await pageSession(ctx, context);
  const step = await interactionStep(ctx, params.uid ?? "", current);
  if (step.step === "redirect") {
    // To /sign-in (a page), or back to the provider (not a Remix route: the whole page goes).
    throw step.to.startsWith("/sign-in") ? redirect(step.to, { headers: ctx.responseHeaders }) : redirectDocument(step.to, { headers: ctx.responseHeaders });
  }
  if (step.step === "expired") return data({ ...step, clientName: null, clientSite: null, scopes: [], newScopes: [] }, { status: 410, headers: ctx.responseHeaders });
  if (step.step === "impersonating") return data({ ...step, clientName: null, clientSite: null, scopes: [], newScopes: [] }, { status: 403, headers: ctx.responseHeaders });
  return data({ ...step, scopes: describeScopes(step.scopes), newScopes: describeScopes(step.newScopes) }, { headers: ctx.responseHeaders });
}

const answer = (allowed: boolean) =>
  intent({
    schema: z.object({}),
    rateLimitAs: "/oauth2/consent",
    session: "required",
    refusalShown: "page",
    run: (_value, current, ctx) => answerConsent(ctx, new URL(ctx.request.url).pathname.split("/").pop() ?? "", current, allowed),
  });

/**
 * "Not you? Use another account": signs this browser out and comes back through the sign-in page, where the
 * person signs in as who they are; the interaction then answers the provider with that account.
 */
const switchAccount = () =>
  intent({
  schema: z.object({}),
  rateLimitAs: "/sign-out",
  session: "none",
  refusalShown: "page",
  run: async (_value, _current, ctx) => {
    await signOut(ctx);
    const back = `${INTERACTION_PAGE}/${encodeURIComponent(new URL(ctx.request.url).pathname.split("/").pop() ?? "")}`;
    return goTo(`/sign-in?${new URLSearchParams({ redirectTo: back })}`, "You are signed out. Sign in with the account you want to use.");
  },
});

export async function action(args: ActionFunctionArgs) {
  const outcome = await pageAction(args, { allow: answer(true), deny: answer(false), "switch-account": switchAccount() });
  if (outcome.ok && typeof outcome.value === "string") throw redirectDocument(outcome.value, { headers: outcome.ctx.responseHeaders });
  if (outcome.ok) return data({ intent: outcome.intent, error: "This request has expired. Go back to the application and start again." }, { status: 410 });
  return answerIntent(outcome);
}

export default function AllowAccess() {
  const page = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>();
  if (page.step === "expired") {
    return (
      <section className="card narrow" aria-labelledby="expired-heading">
        <h1 id="expired-heading">This request has expired</h1>
        <p>The application's sign-in request is no longer open in this browser. Go back to the application and start again.</p>
        <p>
          <Link to="/account">Go to your account</Link>
        </p>
      </section>
    );
  }
  if (page.step === "impersonating") {
    return (
      <section className="card narrow" aria-labelledby="impersonating-heading">
        <h1 id="impersonating-heading">You can't sign in to applications as someone else</h1>
        <p>
          You are acting as {page.name} ({page.email}). While you do, no application can be let in to their account, so this sign-in request was not
          answered.
        </p>
        <p>Stop acting as them (the button at the top of the page), then try again from the application to sign in as yourself.</p>
        <p>
          <Link to="/account">Go to the account</Link>
        </p>
      </section>
    );
  }
  const asked = page.newScopes.length > 0 ? page.newScopes : page.scopes;
  return (
    <Form method="post" reloadDocument className="card narrow" aria-labelledby="consent-heading">
      <h1 id="consent-heading">Allow {page.clientName} to use your account?</h1>
      {last && "error" in last && last.error ? <ErrorSummary errors={[last.error]} /> : null}
      <p className="consent-account" data-testid="consent-account">
        Signed in as <strong>{page.account.name || page.account.email}</strong>
        {page.account.name ? <span className="muted"> ({page.account.email})</span> : null} — not you?{" "}
        <SubmitButton name="intent" value="switch-account" className="link-button">
          Sign out and use another account
        </SubmitButton>
      </p>
      <p>
        <strong>{page.clientName}</strong>
        {page.clientSite ? (
          <>
            {" "}
            (<a href={page.clientSite} rel="noopener noreferrer" className="address" data-testid="client-site">
              {new URL(page.clientSite).host}
            </a>)
          </>
        ) : null}{" "}
        would like to:
      </p>
      <ul>
        {asked.map((words) => (
          <li key={words}>{words}</li>
        ))}
      </ul>
      {page.returnsTo ? (
        <p>
          Whatever you choose, you will be sent back to <strong className="address">{page.returnsTo}</strong>.
        </p>
      ) : null}
      <p className="muted">
        You can take this back at any time under <Link to="/account/applications">Applications</Link> in your account.
      </p>
      <div className="actions">
        <SubmitButton name="intent" value="allow">
          Allow
        </SubmitButton>
        <SubmitButton name="intent" value="deny" className="secondary">
          Deny
        </SubmitButton>
      </div>
    </Form>
  );
}
