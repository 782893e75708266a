// /account/applications: the applications this person allowed to use their account (through "Sign in with
// Latchkey"), each with "Revoke access", which forgets the consent and ends every token the application holds.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { listApplications, revokeApplication } from "~/auth/oidc-provider/consent.server";
import { describeScopes } from "~/auth/oidc-provider/scopes";
import { FlashMessage } from "~/components/account-sections";
import { ErrorSummary, SubmitButton } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { utcTime } from "~/components/time";
import { loadAccountPage } from "~/http/account-page.server";
import { answerIntent, goTo, intent, pageAction } from "~/http/page-action.server";

export const meta = pageTitle("Applications");

export async function loader({ request, context }: LoaderFunctionArgs) {
  return loadAccountPage(request, context, async ({ user }) => ({
    applications: (await listApplications(user.id)).map((app) => ({
      clientId: app.clientId,
      name: app.name,
      allowed: describeScopes(app.scopes),
      allowedAt: app.allowedAt.toISOString(),
      allowedAtUtc: utcTime(app.allowedAt),
    })),
  }));
}

export async function action(args: ActionFunctionArgs) {
  const outcome = await pageAction(args, {
    "revoke-application": intent({
      schema: z.object({ clientId: z.string().min(1).max(64), name: z.string().max(200).optional() }),
      rateLimitAs: "/oauth2/revoke-access",
      session: "required",
      refusalShown: "page",
      run: async (value, current, ctx) => {
        await revokeApplication(ctx, current.user.id, value.clientId);
        return goTo("/account/applications", value.name ? `${value.name} can no longer use your account.` : "Access revoked.");
      },
    }),
  });
  return answerIntent(outcome);
}

export default function AccountApplications() {
  const page = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>();
  return (
    <section aria-labelledby="applications-heading">
      <h1 id="applications-heading">Applications</h1>
      <FlashMessage flash={page.flash} />
      {last?.error ? <ErrorSummary errors={[last.error]} /> : null}
      <p className="muted">Applications you signed in to with your Latchkey account. Revoking access signs you out of the application and it has to ask again.</p>
      {page.applications.length === 0 ? (
        <p>You have not allowed any applications yet.</p>
      ) : (
        <ul className="sessions">
          {page.applications.map((app) => (
            <li key={app.clientId} data-testid="application-row">
              <div>
                <div>
                  <strong>{app.name}</strong>
                </div>
                <div className="muted">
                  Allowed <time dateTime={app.allowedAt}>{app.allowedAtUtc}</time>: {app.allowed.join("; ")}
                </div>
              </div>
              <Form method="post" className="inline">
                <input type="hidden" name="clientId" value={app.clientId} />
                <input type="hidden" name="name" value={app.name} />
                <SubmitButton name="intent" value="revoke-application" className="secondary">
                  Revoke access<span className="visually-hidden"> for {app.name}</span>
                </SubmitButton>
              </Form>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
