// /admin/applications: the applications registered with the OpenID provider (issue 31: "if the admin console
// exists, it lists and registers clients too"). List, register (the secret shown once, in the answer to the
// form post and nowhere else), remove behind a confirmation step (?remove=<id>). Admins only; everyone else gets
// the console's 404. Works without JavaScript: plain form posts, the confirmation a page of its own.
import { getFormProps, getInputProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { listApplications, registerApplication, removeApplication } from "~/auth/admin/applications.server";
import { clientIdFormSchema, registerClientFormSchema } from "~/auth/admin/schemas";
import { FlashMessage } from "~/components/account-sections";
import { ConfirmQuestion } from "~/components/confirm-question";
import { ErrorList, ErrorSummary, Field, StatusMessage, SubmitButton, useZodForm } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { utcTime } from "~/components/time";
import { isConsoleAdmin, notFound, requireConsoleAdmin } from "~/http/admin-pages.server";
import { takeFlashNotice } from "~/http/flash.server";
import { answerIntent, goTo, intent, pageAction } from "~/http/page-action.server";
import { lookAtSession } from "~/http/page-session.server";

export const meta = pageTitle("Admin: applications");

const HERE = "/admin/applications";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [admin, ctx] = await requireConsoleAdmin(request, context);
  const clients = await listApplications(admin);
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
        created: utcTime(client.createdAt),
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
      <div>{title}:</div>
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

function RegisterForm({ last }: { last: ReturnType<typeof useActionData<typeof action>> }) {
  const [form, fields] = useZodForm(
    "register-application",
    registerClientFormSchema,
    last && "result" in last && last.intent === "register" ? last.result : undefined,
    { kind: "confidential" },
  );
  const kindError = fields.kind.errors?.length ? fields.kind.errorId : undefined;
  return (
    <Form method="post" {...getFormProps(form)}>
      <h2>Register an application</h2>
      <ErrorSummary form={form} />
      <Field label="Name" meta={fields.name} type="text" autoComplete="off" hint="What people see on the consent page, e.g. “Team Wiki”." />
      <UriField
        label="Redirect addresses"
        hint="Where the application receives people back, one per line, exactly as it will send them (https, or http on localhost)."
        meta={fields.redirectUris}
      />
      <UriField label="Addresses after signing out (optional)" hint="Where the application may send people after signing out, one per line." meta={fields.postLogoutRedirectUris} />
      <Field label="The application's site (optional)" meta={fields.homepageUrl} type="url" autoComplete="off" hint="Shown on the consent page beside its name, e.g. https://wiki.example.com." />
      <fieldset className="field" aria-describedby={kindError}>
        <legend>Kind</legend>
        {(
          [
            ["confidential", "Confidential: a server-side application that keeps a secret"],
            ["public", "Public: a browser or mobile app with no secret (it must use PKCE)"],
            ["trusted", "Trusted: a confidential application of your own that skips the consent page"],
          ] as const
        ).map(([value, words]) => (
          <label key={value} className="choice">
            <input {...getInputProps(fields.kind, { type: "radio", value })} key={value} /> {words}
          </label>
        ))}
        <ErrorList id={fields.kind.errorId} errors={fields.kind.errors} />
      </fieldset>
      <SubmitButton name="intent" value="register">
        Register
      </SubmitButton>
    </Form>
  );
}

export default function AdminApplications() {
  const page = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>();
  const registered = last && "registered" in last ? last.registered : null;
  const pageError = last && "error" in last ? last.error : undefined;
  return (
    <section aria-labelledby="applications-heading">
      <p>
        <Link to="/admin">All accounts</Link>
      </p>
      <h1 id="applications-heading">Applications</h1>
      <p className="muted">
        Applications that sign people in with this service (OpenID Connect). The same list as <code>npm run oidc -- list-clients</code>.
      </p>
      <FlashMessage flash={page.flash} />
      <ErrorSummary id="page-errors" errors={[pageError]} />
      {registered ? (
        <StatusMessage focusKey={registered.clientId}>
          <p>
            <strong>{registered.name}</strong> is registered.
          </p>
          <dl className="admin-facts">
            <dt>Client ID</dt>
            <dd>
              <code data-testid="registered-client-id">{registered.clientId}</code>
            </dd>
            {registered.clientSecret ? (
              <>
                <dt>Client secret</dt>
                <dd>
                  <code data-testid="registered-client-secret">{registered.clientSecret}</code>
                </dd>
              </>
            ) : null}
          </dl>
          {registered.clientSecret ? (
            <p>Copy the secret now and give it to the application's operators: it is shown only this once. Only a hash of it is kept.</p>
          ) : (
            <p>A public application has no secret: it must use PKCE.</p>
          )}
        </StatusMessage>
      ) : null}

      {page.confirm ? (
        <ConfirmQuestion className="card" labelledBy="confirm-heading">
          <h2 id="confirm-heading">Remove {page.confirm.name}?</h2>
          <p>
            It can no longer sign anyone in: every code and token it holds ends, and the people who allowed it are forgotten. Registering it again gives it a
            new client ID.
          </p>
          <Form method="post" action={HERE} className="actions">
            <input type="hidden" name="clientId" value={page.confirm.clientId} />
            <SubmitButton name="intent" value="remove" className="danger">
              Remove {page.confirm.name}
            </SubmitButton>
            <Link to={HERE}>Cancel</Link>
          </Form>
        </ConfirmQuestion>
      ) : page.confirmGone ? (
        <p className="notice">That application is not registered (any more).</p>
      ) : null}

      <h2>Registered</h2>
      {page.clients.length === 0 ? (
        <p className="muted">No applications yet.</p>
      ) : (
        <ul className="admin-users">
          {page.clients.map((client) => (
            <li key={client.clientId} data-testid="application-row">
              <div>
                <strong>{client.name}</strong>
                <div className="muted">
                  <code>{client.clientId}</code>
                </div>
                <div className="muted">
                  {client.public ? "Public" : "Confidential"}
                  {client.trusted ? " · trusted (no consent page)" : ""} · registered {client.created}
                </div>
                <UriList title="Redirect addresses" uris={client.redirectUris} />
                <UriList title="After signing out" uris={client.postLogoutRedirectUris} />
              </div>
              <div>
                <Link to={`${HERE}?remove=${encodeURIComponent(client.clientId)}`}>
                  Remove…<span className="visually-hidden"> {client.name}</span>
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
