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

const titled = (title: string) => pageTitle<{ view: { state: string } }>(title, (page) => page.view.state === "unusable");
const TITLES = { change: titled("Confirm the change of address"), other: titled("Confirm your email address") };
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
  const hidden = (
    <>
      <input type="hidden" name="token" value={token} />
      {callbackURL ? <input type="hidden" name="callbackURL" value={callbackURL} /> : null}
    </>
  );

  if (view.state === "unusable") return <NothingToConfirm title="We could not confirm your email address" text={problem ?? ""} />;
  if (view.state === "verified") return <NothingToConfirm title="Your email address is verified" text={`${view.email} is already verified. There is nothing more to do.`} />;
  if (view.state === "change") {
    return (
      <section className="card narrow" aria-labelledby="change-heading">
        <h1 id="change-heading">{`Move your account from ${view.email} to ${view.newEmail}?`}</h1>
        {error ? <ErrorSummary errors={[error]} /> : null}
        <p>Someone signed in to your account asked to change its email address to {view.newEmail}.</p>
        <Form method="post" className="actions">
          {hidden}
          <SubmitButton name="intent" value="confirm">
            Confirm
          </SubmitButton>
          <SubmitButton name="intent" value="refuse" className="secondary">
            This wasn't me
          </SubmitButton>
        </Form>
        <p className="muted">"This wasn't me" keeps {view.email}, signs out every device and sends you a link to choose a new password.</p>
      </section>
    );
  }
  if (!view.creator) {
    return (
      <section className="card narrow" aria-labelledby="verify-heading">
        <h1 id="verify-heading">Confirm your email address</h1>
        {error ? <ErrorSummary errors={[error]} /> : null}
        <p>Confirm that {view.email} is your email address.</p>
        <Form method="post">
          {hidden}
          <SubmitButton name="intent" value="confirm" className="primary wide">
            Confirm {view.email}
          </SubmitButton>
        </Form>
      </section>
    );
  }
  const { creator } = view;
  if (last?.intent === "claim-ask" && !error) return <ClaimQuestion email={view.email} creator={creator} hidden={hidden} here={here} />;
  return (
    <section className="card narrow" aria-labelledby="verify-heading">
      <h1 id="verify-heading">Confirm your email address</h1>
      {error ? <ErrorSummary errors={[error]} /> : null}
      <p>
        An account for {view.email} was created on {createdWords(creator.createdAt)}
        {creator.device ? ` from ${creator.device}` : ""}. Was that you?
      </p>
      <h2>That was me</h2>
      <p>Sign in to confirm. Nothing you set up changes.</p>
      {creator.password ? (
        <Form method="post" {...getFormProps(form)}>
          <ErrorSummary form={form} />
          {hidden}
          <input type="hidden" name="intent" value="creator" />
          <Field label="Your password for this account" meta={fields.password} type="password" autoComplete="current-password" />
          <SubmitButton className="primary wide">Sign in and confirm</SubmitButton>
        </Form>
      ) : null}
      {creator.passkeys ? <PasskeySignIn redirectTo={here} /> : null}
      <p>
        <Link to={`/sign-in?redirectTo=${encodeURIComponent(here)}`}>Sign in another way</Link>, then come back to this page.
      </p>
      <h2>I didn't create this account</h2>
      <p>
        Anyone can sign up with any address. If someone else used yours, confirm that it is yours: we remove the password, passkeys and sign-ins they
        set up, and you choose your own.
      </p>
      <Form method="post">
        {hidden}
        <SubmitButton name="intent" value="claim-ask" className="secondary wide">
          I didn't create this account
        </SubmitButton>
      </Form>
    </section>
  );
}

/** A link with nothing (more) to confirm: why, and the way on. */
function NothingToConfirm({ title, text }: { title: string; text: string }) {
  return (
    <section className="narrow">
      <h1>{title}</h1>
      <p>{text}</p>
      <p>
        <Link to="/account">Go to your account</Link>
      </p>
    </section>
  );
}

/** The second step of "I didn't create this account": what goes, then the one button that does it. */
function ClaimQuestion({ email, creator, hidden, here }: { email: string; creator: { password: boolean; passkeys: boolean }; hidden: ReactNode; here: string }) {
  const ways = [creator.password ? "the password" : null, creator.passkeys ? "the passkeys" : null, "any other way in"].filter(Boolean).join(", ");
  return (
    <section className="card narrow" aria-labelledby="claim-heading">
      <h1 id="claim-heading" tabIndex={-1} autoFocus>
        Remove what was set up on this account?
      </h1>
      <p>
        We remove {ways} set up on the account for {email}, and sign out every device where it is signed in. Then you choose your own password with a
        link we email you.
      </p>
      <Form method="post">
        {hidden}
        <SubmitButton name="intent" value="confirm" className="primary wide">
          Yes, remove them
        </SubmitButton>
      </Form>
      <p>
        <Link to={here}>Go back</Link>: if you did create the account, sign in instead and nothing changes.
      </p>
    </section>
  );
}

/** "1 December at 10:02 UTC": fixed words made the same way on the server and in the browser. */
function createdWords(iso: string): string {
  const at = new Date(iso);
  const day = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(at);
  return `${day} at ${iso.slice(11, 16)} UTC`;
}
