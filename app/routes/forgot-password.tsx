import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { requestPasswordResetAsVisitor } from "~/auth/account/password-flows.server";
import { forgotPasswordSchema } from "~/auth/schemas";
import { DevOutboxLink } from "~/components/dev-outbox-link";
import { ErrorSummary, Field, StatusMessage, SubmitButton, useZodForm } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { mayReadLocalOutbox } from "~/email/mailer.server";
import { pageForm } from "~/http/page-action.server";
import { proofOfWorkForAddress, watchProofRefusal } from "~/http/proof-of-work-page.server";
import { ProofOfWorkCheck } from "~/components/proof-of-work";
import { useT } from "~/i18n/react";

export const meta = pageTitle("forgot.pageTitle");

export async function loader({ request, context }: LoaderFunctionArgs) {
  return { outbox: mayReadLocalOutbox(request, context.peerAddress), proofOfWork: await proofOfWorkForAddress(context.clientIp ?? "unknown") };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const proof = watchProofRefusal();
  const outcome = await pageForm({ request, context }, {
    schema: forgotPasswordSchema,
    rateLimitAs: "/request-password-reset",
    session: "none",
    run: async (value, _current, ctx) => {
      await proof.run(() => requestPasswordResetAsVisitor(ctx, { email: value.email }));
      return value.email.toLowerCase();
    },
  });
  if (!outcome.ok) return data({ result: outcome.result, sentTo: null, proofOfWork: proof.need() }, outcome.init);
  return { result: outcome.reply({ resetForm: true }), sentTo: outcome.value, proofOfWork: null };
}

export default function ForgotPassword() {
  const { outbox, proofOfWork: addressProof } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const proofOfWork = actionData?.proofOfWork ?? addressProof;
  const [form, fields] = useZodForm("forgot-password", forgotPasswordSchema, actionData?.result);
  const { t, rich } = useT();
  return (
    <Form method="post" className="card narrow" {...getFormProps(form)}>
      <h1>{t("forgot.heading")}</h1>
      {actionData?.sentTo ? (
        <StatusMessage focusKey={actionData}>
          {rich("forgot.sent", { email: actionData.sentTo }, { ltr: (chunks) => <span key="email" className="address" dir="ltr">{chunks}</span> })}
          <DevOutboxLink show={outbox} />
        </StatusMessage>
      ) : (
        <p className="muted">{t("forgot.lead")}</p>
      )}
      <ErrorSummary form={form} />
      <Field label={t("forgot.email")} meta={fields.email} type="email" autoComplete="email" />
      {proofOfWork ? <ProofOfWorkCheck need={proofOfWork} attempt={actionData} otherWays={<>{t("proofOfWork.otherWayIfYouCan")}</>} /> : null}
      <SubmitButton className="primary wide">{t("forgot.submit")}</SubmitButton>
      <p className="muted">
        <Link to="/sign-in">{t("forgot.back")}</Link>
      </p>
    </Form>
  );
}
