// An application's sign-in request, from the person's side: sign in (Latchkey's own /sign-in, which comes back
// here), then allow or deny what the application asks for. Everything is decided in
// app/auth/oidc-provider/interaction.server.ts; the answers go back to the provider as whole-page navigations
// (redirectDocument, reloadDocument), since its addresses are not Remix routes.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect, redirectDocument } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { z } from "zod";
import { answerConsent, interactionStep } from "~/auth/oidc-provider/interaction.server";
import { describeScopes } from "~/auth/oidc-provider/scopes";
import { INTERACTION_PAGE } from "~/auth/oidc-provider/constants";
import { requestContext } from "~/auth/request-context.server";
import { signOut } from "~/auth/session/sessions.server";
import { ErrorSummary, SubmitButton } from "~/components/forms";
import { titleTranslator, withErrorTitle } from "~/components/page-title";
import { answerIntent, goTo, intent, pageAction } from "~/http/page-action.server";
import { pageSession } from "~/http/page-session.server";
import { useT } from "~/i18n/react";

// A failure page says so first, in words of its own (issue 41): "Error: This request has expired".
// The page's language is the root loader's: the application's ui_locales count while its request waits here.
export const meta: MetaFunction = withErrorTitle(({ data, matches }) => {
  const step = (data as { step?: string } | undefined)?.step;
  const { t } = titleTranslator(matches);
  const title = step === "expired" ? t("common.errorPrefix") + t("consent.expiredTitle") : (step === "impersonating" ? t("common.errorPrefix") : "") + t("consent.title");
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

const bdi = (chunks: ReactNode[]) => <bdi>{chunks}</bdi>;
const ltr = (chunks: ReactNode[]) => <span dir="ltr">{chunks}</span>;

export default function AllowAccess() {
  const page = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>();
  const { t, rich, said } = useT();
  if (page.step === "expired") {
    return (
      <section className="card narrow" aria-labelledby="expired-heading">
        <h1 id="expired-heading">{t("consent.expiredTitle")}</h1>
        <p>{t("consent.expiredText")}</p>
        <p>
          <Link to="/account">{t("consent.toYourAccount")}</Link>
        </p>
      </section>
    );
  }
  if (page.step === "impersonating") {
    return (
      <section className="card narrow" aria-labelledby="impersonating-heading">
        <h1 id="impersonating-heading">{t("consent.impersonatingTitle")}</h1>
        <p>{rich("consent.impersonatingText", { name: page.name, email: page.email }, { bdi, ltr })}</p>
        <p>{t("consent.impersonatingStop")}</p>
        <p>
          <Link to="/account">{t("consent.toTheAccount")}</Link>
        </p>
      </section>
    );
  }
  const asked = page.newScopes.length > 0 ? page.newScopes : page.scopes;
  const application = { application: page.clientName };
  const who = (chunks: ReactNode[]) => (
    <strong>
      <bdi>{chunks}</bdi>
    </strong>
  );
  return (
    <Form method="post" reloadDocument className="card narrow" aria-labelledby="consent-heading">
      <h1 id="consent-heading">{rich("consent.question", application, { bdi })}</h1>
      {last && "error" in last && last.error ? <ErrorSummary errors={[last.error]} /> : null}
      <p className="consent-account" data-testid="consent-account">
        {page.account.name
          ? rich("consent.signedInAsNamed", { name: page.account.name, email: page.account.email }, {
              who,
              muted: (chunks) => <span className="muted">{chunks}</span>,
              ltr,
            })
          : rich("consent.signedInAs", { email: page.account.email }, {
              who: (chunks) => (
                <strong>
                  <span dir="ltr">{chunks}</span>
                </strong>
              ),
            })}{" "}
        <SubmitButton name="intent" value="switch-account" className="link-button">
          {t("consent.switch")}
        </SubmitButton>
      </p>
      <p>
        {page.clientSite
          ? rich("consent.wouldLikeSite", { ...application, host: new URL(page.clientSite).host }, {
              app: who,
              site: (chunks) => (
                <a href={page.clientSite!} rel="noopener noreferrer" className="address" dir="ltr" data-testid="client-site">
                  {chunks}
                </a>
              ),
            })
          : rich("consent.wouldLike", application, { app: who })}
      </p>
      <ul>
        {asked.map((words) => (
          <li key={words}>{said(words)}</li>
        ))}
      </ul>
      {page.returnsTo ? (
        <p>
          {rich("consent.returnsTo", { host: page.returnsTo }, {
            address: (chunks) => (
              <strong className="address" dir="ltr">
                {chunks}
              </strong>
            ),
          })}
        </p>
      ) : null}
      <p className="muted">{rich("consent.takeBack", {}, { link: (chunks) => <Link to="/account/applications">{chunks}</Link> })}</p>
      <div className="actions">
        <SubmitButton name="intent" value="allow">
          {t("consent.allow")}
        </SubmitButton>
        <SubmitButton name="intent" value="deny" className="secondary">
          {t("consent.deny")}
        </SubmitButton>
      </div>
    </Form>
  );
}
