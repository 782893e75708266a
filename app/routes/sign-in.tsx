import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { signInWithIdentifier, twoFactorPage } from "~/auth/username/identifier.server";
import { applicationWaitingAt } from "~/auth/oidc-provider/interaction.server";
import { SignInAlternatives } from "~/components/sign-in-alternatives";
import { safeRedirectTarget } from "~/auth/origin.server";
import { signInFormSchema } from "~/auth/schemas";
import { CheckboxField, ErrorSummary, Field, StatusMessage, SubmitButton, useZodForm } from "~/components/forms";
import { PasskeySignIn } from "~/components/passkey-sign-in";
import { pageTitle } from "~/components/page-title";
import { DevOutboxLink } from "~/components/dev-outbox-link";
import { mayReadLocalOutbox } from "~/email/mailer.server";
import { takeFlashContent } from "~/http/flash.server";
import { goTo, pageForm } from "~/http/page-action.server";
import { socialSignInOptions } from "~/http/page-messages.server";
import { SocialButtons } from "~/components/social-buttons";
import { signInPageFor } from "~/http/signed-in.server";
import { proofOfWorkForAddress, watchProofRefusal } from "~/http/proof-of-work-page.server";
import { ProofOfWorkCheck, SignInWithoutPuzzle } from "~/components/proof-of-work";
import { useT } from "~/i18n/react";

// A provider's refusal (`?error=`) and a second step that ended in a refusal arrive with the page, in its error summary.
export const meta = pageTitle<{ social: { error: string | null }; flashError: string | null }>(
  "signIn.title",
  (data) => data.social.error !== null || data.flashError !== null,
);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { headers, reauthenticating } = await signInPageFor(request, context);
  // After a password reset the address comes prefilled: the reset page passes it on with its message.
  const flash = takeFlashContent(request, headers);
  // The outbox link goes with a message about mail we sent (those carry the address), not e.g. "Sign in again".
  const outbox = Boolean(flash?.email) && mayReadLocalOutbox(request, context.peerAddress);
  return data(
    {
      flash: (flash?.tone === "error" ? null : flash?.text) || (reauthenticating ? "Confirm it's you: sign in again to go on." : null),
      flashError: flash?.tone === "error" ? flash.text : null,
      flashLink: flash?.link ?? null,
      email: flash?.email ?? reauthenticating ?? "",
      // Signed in already and asked to sign in again (OpenID's prompt=login, or chosen on "Confirm it's you").
      reauthenticating: reauthenticating !== null,
      outbox,
      social: socialSignInOptions(request),
      proofOfWork: await proofOfWorkForAddress(context.clientIp ?? "unknown"),
      // An application's sign-in request waits behind this page: "to continue to Team Wiki".
      application: await applicationWaitingAt(new URL(request.url).searchParams.get("redirectTo")),
    },
    { headers },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const proof = watchProofRefusal();
  const refused = await pageForm({ request, context }, {
    schema: signInFormSchema,
    rateLimitAs: "/sign-in/email",
    session: "none",
    hideFields: ["password"],
    run: async (value, _current, ctx) => {
      const answer = await proof.run(() => signInWithIdentifier(ctx, { ...value, identifier: value.email, rememberMe: value.rememberMe === true }));
      return goTo(safeRedirectTarget("twoFactorRedirect" in answer ? twoFactorPage(value.redirectTo) : value.redirectTo));
    },
  });
  return data({ result: refused.result, proofOfWork: proof.need() }, refused.init);
}

export default function SignIn() {
  const page = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const [form, fields] = useZodForm("sign-in", signInFormSchema, actionData?.result, { rememberMe: "on", email: page.email || (searchParams.get("email") ?? undefined) });
  const redirectTo = searchParams.get("redirectTo");
  const proofOfWork = actionData?.proofOfWork ?? page.proofOfWork;
  const { t, rich, said } = useT();
  return (
    <>
    <Form method="post" className="card narrow" {...getFormProps(form)}>
      <h1>{page.reauthenticating ? t("signIn.again") : t("signIn.title")}</h1>
      {page.application ? (
        <p className="subtitle" data-testid="continue-to">
          {rich("signIn.continueTo", { application: page.application }, { app: (chunks) => <strong key="app"><bdi>{chunks}</bdi></strong> })}
        </p>
      ) : null}
      {page.flash && !actionData ? (
        <StatusMessage>
          {said(page.flash)}
          {page.flashLink ? (
            <>
              {" "}
              <Link to={page.flashLink.href}>{said(page.flashLink.text)}</Link>
            </>
          ) : null}
          <DevOutboxLink show={page.outbox} />
        </StatusMessage>
      ) : null}
      <ErrorSummary form={form} errors={actionData ? [] : [page.flashError, page.social.error]} />
      <input type="hidden" name="redirectTo" value={redirectTo ?? ""} />
      <Field label={t("signIn.identifier")} meta={fields.email} type="text" autoComplete="username webauthn" />
      <Field
        label={t("signIn.password")}
        meta={fields.password}
        type="password"
        autoComplete="current-password"
        afterInput={<Link to="/forgot-password" className="small-link">{t("signIn.forgot")}</Link>}
      />
      <CheckboxField label={t("signIn.rememberMe")} meta={fields.rememberMe} />
      {proofOfWork ? <ProofOfWorkCheck need={proofOfWork} attempt={actionData} otherWays={<SignInWithoutPuzzle redirectTo={redirectTo} />} /> : null}
      <SubmitButton className="primary wide">{t("signIn.submit")}</SubmitButton>
      <PasskeySignIn redirectTo={redirectTo} />
      {page.reauthenticating ? null : (
        <p className="muted">
          {rich("signIn.newHere", {}, { link: (chunks) => <Link key="sign-up" to={`/sign-up${redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : ""}`}>{chunks}</Link> })}
        </p>
      )}
      <SignInAlternatives redirectTo={redirectTo} />
    </Form>
    <SocialButtons providers={page.social.providers} redirectTo={redirectTo} />
    </>
  );
}
