// A mailed verification or change-of-address link, opened outside the account's own browser (another device, a mail
// scanner, a link preview): GET /api/auth/verify-email changed nothing and sent the browser here (issue 37). The
// page says what the link will do, for which address, and waits for a click: every button is a plain form POST
// that no script submits by itself. The answers are app/auth/account/email-link.server.ts.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { getFormProps } from "@conform-to/react";
import type { ReactNode } from "react";
import { confirmAsCreatorWithPassword, describeEmailLink, refuseEmailChange } from "~/auth/account/email-link.server";
import { verifyEmailToken } from "~/auth/account/email-verification.server";
import { PAGES } from "~/auth/core/links.server";
import { AuthError } from "~/auth/errors";
import { resolveRedirectTarget } from "~/auth/origin.server";
import { requestContext } from "~/auth/request-context.server";
import { emailLinkCreatorFormSchema, emailLinkFormSchema } from "~/auth/schemas";
import { twoFactorPage } from "~/auth/username/identifier.server";
import { ErrorSummary, Field, SubmitButton, useZodForm } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { PasskeySignIn } from "~/components/passkey-sign-in";
import { answerIntent, goTo, intent, pageAction, pageThatPosted } from "~/http/page-action.server";
import { emailLinkOutcome, verifyLinkProblem } from "~/http/page-messages.server";
import { useT } from "~/i18n/react";

const titled = (title: string) => pageTitle<{ view: { state: string } }>(title, (page) => page.view.state === "unusable");
const TITLES = { change: titled("confirm.titleChange"), other: titled("confirm.titleVerify") };
export const meta: typeof TITLES.other = (args) => ((args.data as { view?: { state: string } } | undefined)?.view?.state === "change" ? TITLES.change : TITLES.other)(args);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = await requestContext(request, context, null);
  const url = new URL(request.url);
  const view = await describeEmailLink(ctx, url.searchParams.get("token") ?? "");
  const problem = view.state === "unusable" ? verifyLinkProblem(view.error) : null;
  return data(
    { view, problem, token: url.searchParams.get("token") ?? "", callbackURL: url.searchParams.get("callbackURL") ?? "", here: pageThatPosted(request) },
    { status: view.state === "unusable" ? 400 : 200, headers: ctx.responseHeaders },
  );
}

/** Where a click lands: the link's callbackURL when this site still trusts it, else the verification page. */
const landing = (callbackURL: string | undefined) => (callbackURL && resolveRedirectTarget(callbackURL)?.href) || PAGES.emailVerified;

const RATE_LIMITED_AS = "/verify-email";

export async function action(args: ActionFunctionArgs) {
  const outcome = await pageAction(args, {
    // "Confirm" (and "I didn't create this account"): the link's own work, as its GET does in the account's browser.
    confirm: intent({
      schema: emailLinkFormSchema,
      rateLimitAs: RATE_LIMITED_AS,
      session: "none",
      refusalShown: "page",
      run: async (value, _current, ctx) => {
        const result = await verifyEmailToken(ctx, value.token, { confirmed: true });
        const target = landing(value.callbackURL);
        if ("twoFactorRedirect" in result) return goTo(twoFactorPage(new URL(target).pathname));
        const { text, ...extra } = emailLinkOutcome(ctx, result.user);
        return goTo(target, text, extra);
      },
    }),
    // "That was me": the account's own password; the address is verified, nothing ends, and this browser signs in.
    creator: intent({
      schema: emailLinkCreatorFormSchema,
      rateLimitAs: "/sign-in/email",
      session: "none",
      hideFields: ["password"],
      fieldFor: (error) => (error.code === "INVALID_PASSWORD" ? "password" : undefined),
      run: async (value, _current, ctx) => {
        // Only the password is asked here (the address is the link's): say so rather than "email and password".
        const { email, outcome } = await confirmAsCreatorWithPassword(ctx, value).catch((error: unknown) => {
          throw error instanceof AuthError && error.code === "INVALID_EMAIL_OR_PASSWORD" ? new AuthError("INVALID_PASSWORD") : error;
        });
        const target = landing(value.callbackURL);
        if (outcome.twoFactorRedirect) return goTo(twoFactorPage(new URL(target).pathname));
        return goTo(target, `Your email address ${email} is verified, and you are signed in. Nothing you set up has changed.`);
      },
    }),
    // "I didn't create this account" asks once more before the claim: a mis-tap would cost the creator their setup.
    "claim-ask": intent({
      schema: emailLinkFormSchema,
      rateLimitAs: RATE_LIMITED_AS,
      session: "none",
      refusalShown: "page",
      run: async () => "ask" as const,
    }),
    // "This wasn't me" on a change of address: cancelled, and every device signed out.
    refuse: intent({
      schema: emailLinkFormSchema,
      rateLimitAs: "/end-all-sessions",
      session: "none",
      refusalShown: "page",
      run: async (value, _current, ctx) => {
        const refused = await refuseEmailChange(ctx, value.token);
        const reset = refused.resetLinkMailed ? ` Choose a new password with the link we sent to ${refused.email} before you sign in again.` : "";
        return goTo("/sign-in", `The change to ${refused.newEmail} was cancelled and every device was signed out.${reset}`, { email: refused.email });
      },
    }),
  });
  return answerIntent(outcome);
}

export default function ConfirmEmail() {
  const { view, problem, token, callbackURL, here } = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>();
  const [form, fields] = useZodForm("email-link-creator", emailLinkCreatorFormSchema, last?.intent === "creator" ? last.result : undefined);
  const error = last && "error" in last ? last.error : null;
  const { t, rich, said, device, dateTime } = useT();
  const ltr = { ltr: (chunks: ReactNode[]) => <span key="email" className="address" dir="ltr">{chunks}</span> };
  const hidden = (
    <>
      <input type="hidden" name="token" value={token} />
      {callbackURL ? <input type="hidden" name="callbackURL" value={callbackURL} /> : null}
    </>
  );

  if (view.state === "unusable") return <NothingToConfirm title={t("verified.failed")} text={said(problem ?? "")} />;
  if (view.state === "verified") return <NothingToConfirm title={t("confirm.alreadyVerified")} text={rich("confirm.alreadyVerifiedText", { email: view.email }, ltr)} />;
  if (view.state === "change") {
    return (
      <section className="card narrow" aria-labelledby="change-heading">
        <h1 id="change-heading">{rich("confirm.moveQuestion", { email: view.email, newEmail: view.newEmail }, { ltr: (chunks) => <span key={String(chunks)} dir="ltr">{chunks}</span> })}</h1>
        {error ? <ErrorSummary errors={[error]} /> : null}
        <p>{rich("confirm.moveAsked", { newEmail: view.newEmail }, ltr)}</p>
        <Form method="post" className="actions">
          {hidden}
          <SubmitButton name="intent" value="confirm">
            {t("confirm.confirm")}
          </SubmitButton>
          <SubmitButton name="intent" value="refuse" className="secondary">
            {t("confirm.notMe")}
          </SubmitButton>
        </Form>
        <p className="muted">{rich("confirm.notMeExplained", { email: view.email }, ltr)}</p>
      </section>
    );
  }
  if (!view.creator) {
    return (
      <section className="card narrow" aria-labelledby="verify-heading">
        <h1 id="verify-heading">{t("confirm.titleVerify")}</h1>
        {error ? <ErrorSummary errors={[error]} /> : null}
        <p>{rich("confirm.verifyThat", { email: view.email }, ltr)}</p>
        <Form method="post">
          {hidden}
          <SubmitButton name="intent" value="confirm" className="primary wide">
            {rich("confirm.confirmAddress", { email: view.email }, ltr)}
          </SubmitButton>
        </Form>
      </section>
    );
  }
  const { creator } = view;
  if (last?.intent === "claim-ask" && !error) return <ClaimQuestion email={view.email} creator={creator} hidden={hidden} here={here} />;
  return (
    <section className="card narrow" aria-labelledby="verify-heading">
      <h1 id="verify-heading">{t("confirm.titleVerify")}</h1>
      {error ? <ErrorSummary errors={[error]} /> : null}
      <p>
        {creator.device
          ? rich("confirm.createdOnFrom", { email: view.email, when: dateTime(new Date(creator.createdAt)), device: device(creator.device) }, ltr)
          : rich("confirm.createdOn", { email: view.email, when: dateTime(new Date(creator.createdAt)) }, ltr)}
      </p>
      <h2>{t("confirm.wasMe")}</h2>
      <p>{t("confirm.signInToConfirm")}</p>
      {creator.password ? (
        <Form method="post" {...getFormProps(form)}>
          <ErrorSummary form={form} />
          {hidden}
          <input type="hidden" name="intent" value="creator" />
          <Field label={t("confirm.password")} meta={fields.password} type="password" autoComplete="current-password" />
          <SubmitButton className="primary wide">{t("confirm.signInAndConfirm")}</SubmitButton>
        </Form>
      ) : null}
      {creator.passkeys ? <PasskeySignIn redirectTo={here} /> : null}
      <p>{rich("confirm.otherWay", {}, { link: (chunks) => <Link key="sign-in" to={`/sign-in?redirectTo=${encodeURIComponent(here)}`}>{chunks}</Link> })}</p>
      <h2>{t("confirm.notCreated")}</h2>
      <p>{t("confirm.notCreatedExplained")}</p>
      <Form method="post">
        {hidden}
        <SubmitButton name="intent" value="claim-ask" className="secondary wide">
          {t("confirm.notCreated")}
        </SubmitButton>
      </Form>
    </section>
  );
}

/** A link with nothing (more) to confirm: why, and the way on. */
function NothingToConfirm({ title, text }: { title: string; text: ReactNode }) {
  const { t } = useT();
  return (
    <section className="narrow">
      <h1>{title}</h1>
      <p>{text}</p>
      <p>
        <Link to="/account">{t("verified.toAccount")}</Link>
      </p>
    </section>
  );
}

/** The second step of "I didn't create this account": what goes, then the one button that does it. */
function ClaimQuestion({ email, creator, hidden, here }: { email: string; creator: { password: boolean; passkeys: boolean }; hidden: ReactNode; here: string }) {
  const { t, rich, list } = useT();
  const ways = list([creator.password ? t("confirm.wayPassword") : null, creator.passkeys ? t("confirm.wayPasskeys") : null, t("confirm.wayOther")].filter((way): way is string => way !== null));
  return (
    <section className="card narrow" aria-labelledby="claim-heading">
      <h1 id="claim-heading" tabIndex={-1} autoFocus>
        {t("confirm.claimHeading")}
      </h1>
      <p>{rich("confirm.claimText", { ways, email }, { ltr: (chunks) => <span key="email" className="address" dir="ltr">{chunks}</span> })}</p>
      <Form method="post">
        {hidden}
        <SubmitButton name="intent" value="confirm" className="primary wide">
          {t("confirm.yesRemove")}
        </SubmitButton>
      </Form>
      <p>{rich("confirm.goBack", {}, { link: (chunks) => <Link key="back" to={here}>{chunks}</Link> })}</p>
    </section>
  );
}
