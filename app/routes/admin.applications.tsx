// /admin/applications: the applications registered with the OpenID provider (issue 31: "if the admin console
// exists, it lists and registers clients too"). List, register (the secret shown once, in the answer to the
// form post and nowhere else), remove behind a confirmation step (?remove=<id>). Admins only; everyone else gets
// the console's 404. Works without JavaScript: plain form posts, the confirmation a page of its own.
import { getFormProps, getInputProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { listApplications, registerApplication, removeApplication } from "~/auth/admin/applications.server";
import { clientIdFormSchema, registerClientFormSchema } from "~/auth/admin/schemas";
import { FlashMessage } from "~/components/account-sections";
import { ConfirmQuestion } from "~/components/confirm-question";
import { ErrorList, ErrorSummary, Field, StatusMessage, SubmitButton, useZodForm } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { When, whenOf } from "~/components/when";
import { isConsoleAdmin, notFound, requireConsoleAdmin } from "~/http/admin-pages.server";
import { takeFlashNotice } from "~/http/flash.server";
import { answerIntent, goTo, intent, pageAction } from "~/http/page-action.server";
import { lookAtSession } from "~/http/page-session.server";
import { useT } from "~/i18n/react";

export const meta = pageTitle("admin.apps.title");

const HERE = "/admin/applications";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [admin, ctx] = await requireConsoleAdmin(request, context);
  const clients = await listApplications(admin);
  const now = new Date();
  const removing = new URL(request.url).searchParams.get("remove");
  const confirm = removing ? (clients.find((client) => client.clientId === removing) ?? null) : null;
  return data(
    {
      clients: clients.map((client) => ({
        clientId: client.clientId,
        name: client.name,
        public: client.public,
        trusted: client.trusted,
        redirectUris: client.redirectUris,
        postLogoutRedirectUris: client.postLogoutRedirectUris,
        created: whenOf(client.createdAt, now),
      })),
      confirm: confirm ? { clientId: confirm.clientId, name: confirm.name } : null,
      /** ?remove= named no client (removed meanwhile, or a made-up id). */
      confirmGone: removing !== null && confirm === null,
      flash: takeFlashNotice(request, ctx.responseHeaders),
    },
    { headers: ctx.responseHeaders },
  );
}

export async function action(args: ActionFunctionArgs) {
  // Not an admin: the same 404 as the page itself, before anything is read.
  if (!isConsoleAdmin(await lookAtSession(args.request, args.context))) throw notFound();
  const outcome = await pageAction(args, {
    register: intent({
      schema: registerClientFormSchema,
      rateLimitAs: "/admin/register-application",
      session: "required",
      run: async (value, admin, ctx) => {
        const registered = await registerApplication(ctx, admin, {
          name: value.name,
          redirectUris: value.redirectUris,
          postLogoutRedirectUris: value.postLogoutRedirectUris,
          homepageUrl: value.homepageUrl || undefined,
          public: value.kind === "public",
          trusted: value.kind === "trusted",
        });
        return { name: value.name, kind: value.kind, ...registered };
      },
    }),
    remove: intent({
      schema: clientIdFormSchema,
      rateLimitAs: "/admin/remove-application",
      session: "required",
      refusalShown: "page",
      run: async (value, admin, ctx) => {
        const removed = await removeApplication(ctx, admin, value.clientId);
        return goTo(HERE, removed ? "The application is removed: it can no longer sign anyone in." : "That application was already removed.");
      },
    }),
  });
  if (outcome.ok && outcome.intent === "register") {
    // The secret is in this answer only: never stored in clear, never in a cookie, never cached.
    outcome.ctx.responseHeaders.set("Cache-Control", "no-store");
    return data({ intent: outcome.intent, registered: outcome.value }, { headers: outcome.ctx.responseHeaders });
  }
  return answerIntent(outcome);
}

function UriField({ label, hint, meta }: { label: string; hint: string; meta: FieldMetadata<string | undefined> }) {
  const hintId = `${meta.id}-hint`;
  return (
    <div className="field">
      <label htmlFor={meta.id}>{label}</label>
      <p id={hintId} className="hint">
        {hint}
      </p>
      <textarea {...getTextareaProps(meta)} rows={3} aria-describedby={[hintId, meta.errors?.length ? meta.errorId : null].filter(Boolean).join(" ")} />
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

function UriList({ title, uris }: { title: string; uris: string[] }) {
  if (uris.length === 0) return null;
  return (
    <>
      <div>{title}</div>
      <ul>
        {uris.map((uri) => (
          <li key={uri}>
            <code>{uri}</code>
          </li>
        ))}
      </ul>
    </>
  );
}

/** The application's name, isolated: someone wrote it, in any script. */
const TAGS = {
  bdi: (chunks: ReactNode[]) => <bdi>{chunks}</bdi>,
  strong: (chunks: ReactNode[]) => (
    <strong>
      <bdi>{chunks}</bdi>
    </strong>
  ),
  code: (chunks: ReactNode[]) => <code>{chunks}</code>,
};

function RegisterForm({ last }: { last: ReturnType<typeof useActionData<typeof action>> }) {
  const t = useT();
  const [form, fields] = useZodForm(
    "register-application",
    registerClientFormSchema,
    last && "result" in last && last.intent === "register" ? last.result : undefined,
    { kind: "confidential" },
  );
  const kindError = fields.kind.errors?.length ? fields.kind.errorId : undefined;
  return (
    <Form method="post" {...getFormProps(form)}>
      <h2>{t.t("admin.apps.registerTitle")}</h2>
      <ErrorSummary form={form} />
      <Field label={t.t("admin.apps.name")} meta={fields.name} type="text" autoComplete="off" hint={t.t("admin.apps.nameHint")} />
      <UriField label={t.t("admin.apps.redirects")} hint={t.t("admin.apps.redirectsHint")} meta={fields.redirectUris} />
      <UriField label={t.t("admin.apps.afterSignOut")} hint={t.t("admin.apps.afterSignOutHint")} meta={fields.postLogoutRedirectUris} />
      <Field label={t.t("admin.apps.site")} meta={fields.homepageUrl} type="url" autoComplete="off" hint={t.t("admin.apps.siteHint")} />
      <fieldset className="field" aria-describedby={kindError}>
        <legend>{t.t("admin.apps.kind")}</legend>
        {(
          [
            ["confidential", "admin.apps.kindConfidential"],
            ["public", "admin.apps.kindPublic"],
            ["trusted", "admin.apps.kindTrusted"],
          ] as const
        ).map(([value, words]) => (
          <label key={value} className="choice">
            <input {...getInputProps(fields.kind, { type: "radio", value })} key={value} /> {t.t(words)}
          </label>
        ))}
        <ErrorList id={fields.kind.errorId} errors={fields.kind.errors} />
      </fieldset>
      <SubmitButton name="intent" value="register">
        {t.t("admin.apps.register")}
      </SubmitButton>
    </Form>
  );
}

export default function AdminApplications() {
  const page = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>();
  const t = useT();
  const registered = last && "registered" in last ? last.registered : null;
  const pageError = last && "error" in last ? last.error : undefined;
  return (
    <section aria-labelledby="applications-heading">
      <p>
        <Link to="/admin">{t.t("admin.allAccounts")}</Link>
      </p>
      <h1 id="applications-heading">{t.t("admin.apps.heading")}</h1>
      <p className="muted">{t.rich("admin.apps.lead", { command: "npm run oidc -- list-clients" }, TAGS)}</p>
      <FlashMessage flash={page.flash} />
      <ErrorSummary id="page-errors" errors={[pageError]} />
      {registered ? (
        <StatusMessage focusKey={registered.clientId}>
          <p>{t.rich("admin.apps.registered", { name: registered.name }, TAGS)}</p>
          <dl className="admin-facts">
            <dt>{t.t("admin.apps.clientId")}</dt>
            <dd>
              <code data-testid="registered-client-id">{registered.clientId}</code>
            </dd>
            {registered.clientSecret ? (
              <>
                <dt>{t.t("admin.apps.clientSecret")}</dt>
                <dd>
                  <code data-testid="registered-client-secret">{registered.clientSecret}</code>
                </dd>
              </>
            ) : null}
          </dl>
          <p>{t.t(registered.clientSecret ? "admin.apps.copySecret" : "admin.apps.noSecret")}</p>
        </StatusMessage>
      ) : null}

      {page.confirm ? (
        <ConfirmQuestion className="card" labelledBy="confirm-heading">
          <h2 id="confirm-heading">{t.rich("admin.apps.removeQuestion", { name: page.confirm.name }, TAGS)}</h2>
          <p>{t.t("admin.apps.removeText")}</p>
          <Form method="post" action={HERE} className="actions">
            <input type="hidden" name="clientId" value={page.confirm.clientId} />
            <SubmitButton name="intent" value="remove" className="danger">
              {t.rich("admin.apps.remove", { name: page.confirm.name }, TAGS)}
            </SubmitButton>
            <Link to={HERE}>{t.t("admin.cancel")}</Link>
          </Form>
        </ConfirmQuestion>
      ) : page.confirmGone ? (
        <p className="notice">{t.t("admin.apps.gone")}</p>
      ) : null}

      <h2>{t.t("admin.apps.registeredTitle")}</h2>
      {page.clients.length === 0 ? (
        <p className="muted">{t.t("admin.apps.none")}</p>
      ) : (
        <ul className="admin-users">
          {page.clients.map((client) => (
            <li key={client.clientId} data-testid="application-row">
              <div>
                <strong>
                  <bdi>{client.name}</bdi>
                </strong>
                <div className="muted">
                  <code>{client.clientId}</code>
                </div>
                <div className="muted">
                  {t.t(client.public ? "admin.apps.public" : "admin.apps.confidential")}
                  {client.trusted ? ` · ${t.t("admin.apps.trusted")}` : ""} · <When at={client.created} message="admin.apps.registeredAt" />
                </div>
                <UriList title={t.t("admin.apps.redirectsList")} uris={client.redirectUris} />
                <UriList title={t.t("admin.apps.afterSignOutList")} uris={client.postLogoutRedirectUris} />
              </div>
              <div>
                <Link to={`${HERE}?remove=${encodeURIComponent(client.clientId)}`}>
                  {t.rich("admin.apps.removeLink", { name: client.name }, { hidden: (chunks: ReactNode[]) => <span className="visually-hidden">{chunks}</span>, bdi: (chunks: ReactNode[]) => <bdi>{chunks}</bdi> })}
                </Link>
              </div>
            </li>
          ))}
        </ul>
      )}

      <RegisterForm last={last} />
    </section>
  );
}
