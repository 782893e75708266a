// /organizations/{slug}/sso: an organization's enterprise sign-in, for its owners and admins (everyone else gets a
// 404, as for hidden pages). Each connection with its protocol, domain and whether the domain is proven; until it
// is, the TXT record to create and "Verify domain"; what the IdP's admin needs; adding an OIDC connection; removing
// one after a question. Works without JavaScript; every answer comes back to this page with its message focused.
import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useSearchParams } from "@remix-run/react";
import type { ReactNode } from "react";
import { z } from "zod";
import { AuthError } from "~/auth/errors";
import { registerConnection, deleteConnection } from "~/auth/sso/connections.server";
import { requestDomainVerification, verifyDomain } from "~/auth/sso/domains.server";
import { assertConnectionOf, connectionsPage, managedOrganization, spEntityIdFor } from "~/auth/sso/page.server";
import { addOidcForm, addSamlForm, providerIdField } from "~/auth/sso/schemas";
import type { SessionWithUser } from "~/auth/session/sessions.server";
import { FlashMessage, Section } from "~/components/account-sections";
import { ConfirmQuestion } from "~/components/confirm-question";
import { ErrorList, ErrorSummary, Field, SubmitButton, useZodForm } from "~/components/forms";
import { titleTranslator, withErrorTitle } from "~/components/page-title";
import { useT } from "~/i18n/react";
import { takeFlashNotice } from "~/http/flash.server";
import { goTo, intent, organizationAction, pageThatPosted, type IntentResult } from "~/http/organization-actions.server";
import { requirePageSession } from "~/http/page-session.server";

export const meta: MetaFunction<typeof loader> = withErrorTitle(({ data, matches }) => {
  const t = titleTranslator(matches);
  const name = (data as { organization?: { name: string } } | undefined)?.organization?.name ?? t.t("orgs.tabs.label");
  return [{ title: `${t.t("orgs.sso.pageTitle", { name })} · Latchkey` }];
});

const notFound = () => new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const [current, ctx] = await requirePageSession(request, context);
  const page = await connectionsPage(current, params.slug ?? "");
  if (!page) throw notFound();
  return data({ ...page, flash: takeFlashNotice(request, ctx.responseHeaders) }, { headers: ctx.responseHeaders });
}

const VERIFY_FAILED_WORDS =
  "We could not find the TXT record on every domain yet. Check its name and value; DNS changes can take a while to show, so try again later.";

export async function action({ request, context, params }: ActionFunctionArgs) {
  const organizationOf = async (current: SessionWithUser) => {
    const found = await managedOrganization(current, params.slug ?? "");
    if (!found) throw notFound();
    return found;
  };
  const ours = async (current: SessionWithUser, providerId: string) => assertConnectionOf((await organizationOf(current)).id, providerId);
  const back = (ctx: { request: Request }, message: string) => goTo(pageThatPosted(ctx.request).replace(/\?.*$/, ""), message);
  return organizationAction({ request, context }, {
    "add-oidc": intent({
      schema: addOidcForm,
      rateLimitAs: "/sso/register",
      session: "required",
      hideFields: ["clientSecret"],
      run: async (value, current, ctx) => {
        const organization = await organizationOf(current);
        const { clientId, clientSecret, ...rest } = value;
        await registerConnection(current, { ...rest, organizationId: organization.id, oidcConfig: { clientId, clientSecret } }, ctx);
        return back(ctx, `Added ${value.providerId}. Next, prove the domain with the TXT record below.`);
      },
    }),
    "add-saml": intent({
      schema: addSamlForm,
      rateLimitAs: "/sso/register",
      session: "required",
      run: async (value, current, ctx) => {
        const organization = await organizationOf(current);
        await registerConnection(current, {
          providerId: value.providerId,
          issuer: spEntityIdFor(value.providerId),
          domain: value.domain,
          organizationId: organization.id,
          samlConfig: { entryPoint: value.entryPoint, cert: value.cert, idpMetadata: { entityID: value.idpEntityId } },
        }, ctx);
        return back(ctx, `Added ${value.providerId}. Next, prove the domain with the TXT record below.`);
      },
    }),
    verify: intent({
      schema: z.object({ providerId: providerIdField }),
      rateLimitAs: "/sso/verify-domain",
      session: "required",
      refusalShown: "page",
      run: async (value, current, ctx) => {
        await ours(current, value.providerId);
        try {
          await verifyDomain(current, value.providerId, ctx);
        } catch (error) {
          if (error instanceof AuthError && error.code === "DOMAIN_VERIFICATION_FAILED") throw new AuthError("DOMAIN_NOT_VERIFIED_YET", { message: VERIFY_FAILED_WORDS });
          throw error;
        }
        return back(ctx, `The domain of ${value.providerId} is verified: its people can now sign in with SSO.`);
      },
    }),
    "new-token": intent({
      schema: z.object({ providerId: providerIdField }),
      rateLimitAs: "/sso/request-domain-verification",
      session: "required",
      refusalShown: "page",
      run: async (value, current, ctx) => {
        await ours(current, value.providerId);
        await requestDomainVerification(current, value.providerId);
        return back(ctx, `A new TXT record value for ${value.providerId} is below. It works for 7 days.`);
      },
    }),
    remove: intent({
      schema: z.object({ providerId: providerIdField }),
      rateLimitAs: "/sso/delete-provider",
      session: "required",
      refusalShown: "page",
      run: async (value, current, ctx) => {
        await ours(current, value.providerId);
        await deleteConnection(current, value.providerId, ctx);
        return back(ctx, `Removed ${value.providerId}. Its people can no longer sign in with it.`);
      },
    }),
  });
}

type PageData = ReturnType<typeof useLoaderData<typeof loader>>;
type Connection = PageData["connections"][number];

function Refusal({ last, intent: name }: { last?: IntentResult; intent: string }) {
  return last?.intent === name && last.error ? <ErrorSummary id={`${name}-refusal`} errors={[last.error]} /> : null;
}

function Copyable({ label, value }: { label: string; value: string }) {
  return (
    <div className="field">
      <label>
        {label}
        <input type="text" readOnly value={value} className="copyable" />
      </label>
    </div>
  );
}

function ConnectionCard({ connection, confirming }: { connection: Connection; confirming: boolean }) {
  const { pathname } = useLocation();
  const { t, rich } = useT();
  const ltr = (chunks: ReactNode[]) => <span dir="ltr">{chunks}</span>;
  const id = connection.providerId;
  return (
    <article className="card" aria-labelledby={`connection-${id}`}>
      <h3 id={`connection-${id}`}>
        <bdi>{id}</bdi>
      </h3>
      <p>
        <span translate="no">{connection.type === "saml" ? "SAML 2.0" : "OpenID Connect"}</span> · <span dir="ltr">{connection.domain.split(",").join(", ")}</span> ·{" "}
        <strong>{connection.domainVerified ? t("orgs.sso.verified") : t("orgs.sso.notVerified")}</strong>
      </p>
      <h4>{t("orgs.sso.idpNeeds")}</h4>
      {connection.type === "saml" ? (
        <>
          <Copyable label={t("orgs.sso.acsUrl")} value={connection.acsUrl} />
          <Copyable label={t("orgs.sso.entityId")} value={connection.issuer} />
          <Copyable label={t("orgs.sso.metadataUrl")} value={connection.metadataUrl} />
        </>
      ) : (
        <>
          <Copyable label={t("orgs.sso.redirectUri")} value={connection.redirectURI} />
          <p className="muted">
            {connection.oidcConfig
              ? rich("orgs.sso.issuerClient", { issuer: connection.issuer, lastFour: connection.oidcConfig.clientIdLastFour }, { ltr })
              : rich("orgs.sso.issuer", { issuer: connection.issuer }, { ltr })}
          </p>
        </>
      )}
      {connection.domainVerified ? null : (
        <>
          <h4>{t("orgs.sso.prove")}</h4>
          {connection.records.length ? (
            <>
              <p>{t("orgs.sso.createRecord")}</p>
              {connection.records.map((record) => (
                <div key={record.name}>
                  <Copyable label={t("orgs.sso.recordName")} value={record.name} />
                  <Copyable label={t("orgs.sso.recordValue")} value={record.value} />
                </div>
              ))}
              <Form method="post">
                <input type="hidden" name="intent" value="verify" />
                <input type="hidden" name="providerId" value={id} />
                <SubmitButton>{t("orgs.sso.verify")}</SubmitButton>
              </Form>
            </>
          ) : (
            <Form method="post">
              <p>{t("orgs.sso.recordExpired")}</p>
              <input type="hidden" name="intent" value="new-token" />
              <input type="hidden" name="providerId" value={id} />
              <SubmitButton>{t("orgs.sso.newValue")}</SubmitButton>
            </Form>
          )}
        </>
      )}
      {confirming ? (
        <ConfirmQuestion className="confirm banner" labelledBy="confirm-question">
          <p id="confirm-question">
            <strong>{rich("orgs.sso.removeQuestion", { id }, { bdi: (chunks) => <bdi>{chunks}</bdi> })}</strong>
          </p>
          <Form method="post" action={pathname} className="row-actions">
            <input type="hidden" name="intent" value="remove" />
            <input type="hidden" name="providerId" value={id} />
            <SubmitButton className="danger">{t("orgs.members.remove")}</SubmitButton>
            <Link to={pathname} className="button-link secondary">
              {t("orgs.cancel")}
            </Link>
          </Form>
        </ConfirmQuestion>
      ) : (
        <p>
          <Link
            to={`?${new URLSearchParams({ confirm: "remove", provider: id })}`}
            className="button-link secondary"
            aria-label={t("orgs.sso.removeOf", { id })}
          >
            {t("orgs.members.remove")}
          </Link>
        </p>
      )}
    </article>
  );
}

function AddOidcForm({ last }: { last?: IntentResult }) {
  const { t } = useT();
  const [form, fields] = useZodForm("add-oidc", addOidcForm, last?.intent === "add-oidc" ? last.result : undefined);
  return (
    <Form method="post" {...getFormProps(form)}>
      <h3>{t("orgs.sso.addOidc")}</h3>
      <ErrorSummary form={form} />
      <input type="hidden" name="intent" value="add-oidc" />
      <Field label={t("orgs.sso.providerId")} meta={fields.providerId} type="text" autoComplete="off" />
      <Field label={t("orgs.sso.domain")} meta={fields.domain} type="text" autoComplete="off" />
      <Field label={t("orgs.sso.issuerUrl")} meta={fields.issuer} type="url" autoComplete="off" />
      <Field label={t("orgs.sso.clientId")} meta={fields.clientId} type="text" autoComplete="off" />
      <Field label={t("orgs.sso.clientSecret")} meta={fields.clientSecret} type="password" autoComplete="off" />
      <SubmitButton>{t("orgs.sso.addOidcSubmit")}</SubmitButton>
    </Form>
  );
}

function AddSamlForm({ last }: { last?: IntentResult }) {
  const { t } = useT();
  const [form, fields] = useZodForm("add-saml", addSamlForm, last?.intent === "add-saml" ? last.result : undefined);
  return (
    <Form method="post" {...getFormProps(form)}>
      <h3>{t("orgs.sso.addSaml")}</h3>
      <ErrorSummary form={form} />
      <input type="hidden" name="intent" value="add-saml" />
      <Field label={t("orgs.sso.providerId")} meta={fields.providerId} type="text" autoComplete="off" />
      <Field label={t("orgs.sso.domain")} meta={fields.domain} type="text" autoComplete="off" />
      <Field label={t("orgs.sso.idpEntityId")} meta={fields.idpEntityId} type="text" autoComplete="off" />
      <Field label={t("orgs.sso.ssoUrl")} meta={fields.entryPoint} type="url" autoComplete="off" />
      <div className="field">
        <label htmlFor={fields.cert.id}>{t("orgs.sso.certificate")}</label>
        <textarea
          id={fields.cert.id}
          name={fields.cert.name}
          rows={6}
          defaultValue={typeof fields.cert.initialValue === "string" ? fields.cert.initialValue : ""}
          aria-invalid={fields.cert.errors ? true : undefined}
          aria-describedby={fields.cert.errors ? fields.cert.errorId : undefined}
        />
        <ErrorList id={fields.cert.errorId} errors={fields.cert.errors} />
      </div>
      <SubmitButton>{t("orgs.sso.addSamlSubmit")}</SubmitButton>
    </Form>
  );
}

export default function OrganizationSsoPage() {
  const page = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>() as IntentResult | undefined;
  const [params] = useSearchParams();
  const removing = params.get("confirm") === "remove" ? params.get("provider") : null;
  const { t, rich } = useT();
  return (
    <>
      <section>
        <h1>{t("orgs.sso.title")}</h1>
        <FlashMessage flash={page.flash} />
        <p className="muted">
          <Link to={`/organizations/${encodeURIComponent(page.organization.slug)}`}>
            <bdi>{page.organization.name}</bdi>
          </Link>
        </p>
        <p>{rich("orgs.sso.lead", { name: page.organization.name }, { bdi: (chunks) => <bdi>{chunks}</bdi> })}</p>
      </section>
      <Section id="connections" title={t("orgs.sso.connections")}>
        <Refusal last={last} intent="verify" />
        <Refusal last={last} intent="new-token" />
        <Refusal last={last} intent="remove" />
        {page.connections.length === 0 ? <p>{t("orgs.sso.none")}</p> : null}
        {page.connections.map((connection) => (
          <ConnectionCard key={connection.providerId} connection={connection} confirming={removing === connection.providerId} />
        ))}
      </Section>
      <Section id="add" title={t("orgs.sso.add")}>
        <AddOidcForm last={last} />
        <AddSamlForm last={last} />
      </Section>
    </>
  );
}
