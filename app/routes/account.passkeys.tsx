// The account area's passkeys: each one's name, creation date and whether it is synced; add one (JavaScript),
// rename or delete one (plain forms that work without JavaScript). The list is the loader's, kept live with
// JavaScript by the client's usePasskeys() (refetched after a passkey is added, renamed or deleted). Like every
// account page, a rename or deletion comes back by post/redirect/get with its confirmation focused at the top, and
// a refusal in a focused error summary, with "Error:" in the title.
import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { deletePasskey, listPasskeys, publicPasskey, renamePasskey } from "~/auth/passkey/passkeys.server";
import { deletePasskeyForm, renamePasskeyForm } from "~/auth/passkey/schemas";
import { confirmItsYouUrl, recentlyVerified } from "~/auth/step-up/recently-verified.server";
import { authClient } from "~/client/auth-client";
import type { Passkey } from "~/client";
import { FlashMessage } from "~/components/account-sections";
import { KeptWhileActingLine, useActingAsSomeone } from "~/components/kept-while-acting";
import { ConfirmItsYou } from "~/components/confirm-its-you";
import { ErrorSummary, Field, SubmitButton, useZodForm } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { ADD_PASSKEY_CEREMONY, AddPasskey } from "~/components/passkey-add";
import { usePasskeyCeremony } from "~/components/passkey-ui";
import { loadAccountPage } from "~/http/account-page.server";
import { goTo, intent, pageAction } from "~/http/page-action.server";
import { useT } from "~/i18n/react";

const HERE = "/account/passkeys";

export const meta = pageTitle("passkeys.title");

export async function loader({ request, context }: LoaderFunctionArgs) {
  return loadAccountPage(request, context, async ({ user, session }) => ({
    // Adding a passkey is a new way in: without a recent sign-in the page offers one instead (ADR 030).
    recentSignIn: recentlyVerified(session),
    confirmUrl: confirmItsYouUrl(HERE),
    // As GET /passkey/list-user-passkeys sends them (dates as ISO text), so the client's live list starts from it.
    passkeys: (await listPasskeys(user.id)).map((p) => ({ ...publicPasskey(p), createdAt: p.createdAt.toISOString() })),
  }));
}

export async function action({ request, context }: ActionFunctionArgs) {
  // The intent is in the form's action URL (each row has two forms), and so is the passkey a refusal is about.
  const refused = await pageAction(
    { request, context },
    {
      rename: intent({
        schema: renamePasskeyForm,
        rateLimitAs: "/passkey/update-passkey",
        session: "required",
        fieldFor: (error) => (error.code !== "PASSKEY_NOT_FOUND" ? "name" : undefined),
        run: async (value, current) => {
          await renamePasskey(current.user.id, { id: value.id, name: value.name });
          return goTo(HERE, "Passkey renamed.");
        },
      }),
      delete: intent({
        schema: deletePasskeyForm,
        rateLimitAs: "/passkey/delete-passkey",
        session: "required",
        run: async (value, current, ctx) => {
          await deletePasskey(ctx, current, { id: value.id });
          return goTo(HERE, "Passkey deleted.");
        },
      }),
    },
    { choose: (_form, url) => url.searchParams.get("intent"), otherwise: "rename" },
  );
  return data({ intent: refused.intent as "rename" | "delete", id: new URL(request.url).searchParams.get("id"), result: refused.result }, refused.init);
}

type Last = ReturnType<typeof useActionData<typeof action>>;

function PasskeyRow({ passkey, last }: { passkey: Passkey; last: Last }) {
  const mine = last?.id === passkey.id;
  const [form, fields] = useZodForm(`rename-${passkey.id}`, renamePasskeyForm, mine && last?.intent === "rename" ? last.result : undefined, {
    id: passkey.id,
    name: passkey.name ?? "",
  });
  const { t, rich, date, dateTime } = useT();
  const label = passkey.name || t("passkeys.unnamed");
  const synced = passkey.backedUp || passkey.deviceType === "multiDevice";
  const added = new Date(passkey.createdAt);
  return (
    <li data-testid="passkey-row">
      <div>
        <div>
          <strong>
            <bdi>{label}</bdi>
          </strong>
        </div>
        <div className="muted">
          {rich(synced ? "passkeys.addedSynced" : "passkeys.addedOneDevice", { date: date(added) }, {
            time: (chunks) => (
              <time dateTime={passkey.createdAt} title={dateTime(added)}>
                {chunks}
              </time>
            ),
          })}
        </div>
        <Form method="post" action={`${HERE}?intent=rename&id=${encodeURIComponent(passkey.id)}`} {...getFormProps(form)}>
          <ErrorSummary form={form} />
          <input type="hidden" name="id" value={passkey.id} />
          <Field label={t("passkeys.name")} meta={fields.name} type="text" autoComplete="off" />
          <SubmitButton className="secondary">{t("passkeys.rename")}</SubmitButton>
        </Form>
      </div>
      <Form method="post" action={`${HERE}?intent=delete&id=${encodeURIComponent(passkey.id)}`} className="inline">
        <input type="hidden" name="id" value={passkey.id} />
        <button type="submit" className="danger" aria-label={t("passkeys.deleteLabel", { name: label })}>
          {t("passkeys.delete")}
        </button>
      </Form>
    </li>
  );
}

export default function AccountPasskeys() {
  const loaded = useLoaderData<typeof loader>();
  const passkeys = authClient.usePasskeys({ initialData: loaded.passkeys }).data ?? loaded.passkeys;
  const last = useActionData<typeof action>();
  // A rename refused is summed up in its row's form; a refused deletion (its form has no fields), or a refusal
  // for a passkey no longer listed (deleted meanwhile), at the top of the page.
  const atTop = last && (last.intent === "delete" || !passkeys.some((p) => p.id === last.id));
  const topErrors = atTop ? Object.values(last.result.error ?? {}).flat() : [];
  // Adding a passkey (JavaScript) answers at the top too, in place of an older confirmation: in view on a phone,
  // where the button is far down the page and the list grows above it.
  const adding = usePasskeyCeremony(ADD_PASSKEY_CEREMONY);
  const acting = useActingAsSomeone();
  const { t } = useT();
  return (
    <section aria-labelledby="passkeys-heading">
      <h1 id="passkeys-heading">{t("passkeys.title")}</h1>
      {adding.started ? adding.message : <FlashMessage flash={loaded.flash} />}
      <ErrorSummary errors={topErrors} />
      <p className="muted">{t("passkeys.lead")}</p>
      {acting ? <KeptWhileActingLine kept="passkeys can't be added, renamed or deleted" /> : null}
      {passkeys.length === 0 ? (
        <p>{t("passkeys.none")}</p>
      ) : acting ? (
        <ul className="sessions passkeys">
          {passkeys.map((p) => (
            <li key={p.id} data-testid="passkey-row">
              <strong>
                <bdi>{p.name || t("passkeys.unnamed")}</bdi>
              </strong>
            </li>
          ))}
        </ul>
      ) : (
        <ul className="sessions passkeys">
          {passkeys.map((p) => (
            // Keyed by the confirmation too, so a success resets the row's form (its last refusal included).
            <PasskeyRow key={`${p.id}-${loaded.flash?.id}`} passkey={p} last={last} />
          ))}
        </ul>
      )}
      {acting ? null : loaded.recentSignIn ? <AddPasskey ceremony={adding} /> : <ConfirmItsYou what="adding a passkey" href={loaded.confirmUrl} />}
    </section>
  );
}
