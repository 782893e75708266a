// /account/linked-accounts: every enabled provider with "Link" or "Unlink", and the password shown as "Password".
// Plain forms: linking redirects to the provider and back, without JavaScript. Like every account page, a success
// comes back by post/redirect/get with its confirmation focused at the top, and a refusal (or a provider's
// `?error=` on the way back) in the focused error summary, with "Error:" in the title.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { requireRecentVerification } from "~/auth/step-up/guard.server";
import { confirmItsYouUrl, recentlyVerified } from "~/auth/step-up/recently-verified.server";
import { unlinkAccount } from "~/auth/social/accounts.server";
import { linkedAccountsOf, linkedJustNow } from "~/auth/social/pages.server";
import { enabledProviders } from "~/auth/social/providers/registry.server";
import { startSocialFlow } from "~/auth/social/sign-in.server";
import { FlashMessage } from "~/components/account-sections";
import { KeptWhileActingLine, useActingAsSomeone } from "~/components/kept-while-acting";
import { ConfirmItsYou } from "~/components/confirm-its-you";
import { ErrorSummary } from "~/components/forms";
import { withErrorTitle } from "~/components/page-title";
import { loadAccountPage } from "~/http/account-page.server";
import { setFlash } from "~/http/flash.server";
import { requirePageSession } from "~/http/page-session.server";
import { socialSignInProblem } from "~/http/page-messages.server";
import { goTo, pageForm } from "~/http/page-action.server";
import { titleTranslator } from "~/components/page-title";
import { useT } from "~/i18n/react";

const HERE = "/account/linked-accounts";

export const meta: MetaFunction<typeof loader> = withErrorTitle(({ data, matches }) => {
  const t = titleTranslator(matches);
  return [{ title: `${(data as { error?: string | null } | undefined)?.error ? t.t("common.errorPrefix") : ""}${t.t("linked.title")} · Latchkey` }];
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  // The way back from linking (`?linked=<provider>`): confirmed once, by post/redirect/get, and only when that
  // provider was in fact just linked; anyone can type the parameter.
  const linked = params.get("linked");
  if (linked !== null) {
    const [current, ctx] = await requirePageSession(request, context);
    const provider = enabledProviders().find((p) => p.id === linked);
    if (provider && (await linkedJustNow(current.user.id, provider.id))) setFlash(ctx.responseHeaders, `${provider.name} is linked. You can sign in with it now.`);
    throw redirect(HERE, { headers: ctx.responseHeaders });
  }
  return loadAccountPage(request, context, async ({ user, session }) => ({
    ...(await linkedAccountsOf(user.id)),
    // Linking is a new way in: without a recent sign-in the page offers one instead (ADR 030).
    recentSignIn: recentlyVerified(session),
    confirmUrl: confirmItsYouUrl(HERE),
    // The provider's way back when it did not work.
    error: socialSignInProblem(params.get("error")),
  }));
}

const schema = z.object({ intent: z.enum(["link", "unlink"]), provider: z.string().min(1).max(64) });

export async function action({ request, context }: ActionFunctionArgs) {
  const refused = await pageForm({ request, context }, {
    schema,
    rateLimitAs: "/link-social",
    session: "required",
    run: async (value, current, ctx) => {
      if (value.intent === "link") {
        // Linking adds a way in: it needs a recent sign-in (ADR 030); the page offers one when it is not.
        await requireRecentVerification(ctx, current, "/link-social");
        return goTo((await startSocialFlow(ctx, { provider: value.provider, callbackURL: `${HERE}?linked=${encodeURIComponent(value.provider)}`, errorCallbackURL: HERE }, current.user.id)).url);
      }
      await unlinkAccount(ctx, current, { providerId: value.provider });
      return goTo(HERE, `${enabledProviders().find((p) => p.id === value.provider)?.name ?? "The account"} is unlinked.`);
    },
  });
  return data({ result: refused.result }, refused.init);
}

export default function LinkedAccounts() {
  const page = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>()?.result;
  const errors = [...Object.values(refused?.error ?? {}).flat(), page.error];
  const acting = useActingAsSomeone();
  const { t } = useT();
  return (
    <section aria-labelledby="linked-heading">
      <h1 id="linked-heading">{t("linked.title")}</h1>
      <FlashMessage flash={page.flash} />
      <ErrorSummary errors={errors} />
      <p className="muted">{t("linked.lead")}</p>
      {acting ? <KeptWhileActingLine kept="accounts can't be linked or unlinked" /> : null}
      {acting || page.recentSignIn || page.providers.every((p) => p.linked) ? null : <ConfirmItsYou what="linking an account" href={page.confirmUrl} />}
      <ul className="linked-accounts">
        <li>
          <span>{t("linked.password")}</span>
          <span className="muted">{page.hasPassword ? t("linked.set") : t("linked.notSet")}</span>
        </li>
        {page.providers.map((provider) => (
          <li key={provider.id}>
            <span>{provider.name}</span>
            {acting ? (
              <span className="muted">{provider.linked ? t("linked.linked") : t("linked.notLinked")}</span>
            ) : (
              <Form method="post" action={HERE} reloadDocument>
                <input type="hidden" name="provider" value={provider.id} />
                {provider.linked ? (
                  <button type="submit" name="intent" value="unlink" className="secondary" aria-label={t("linked.unlinkLabel", { provider: provider.name })}>
                    {t("linked.unlink")}
                  </button>
                ) : page.recentSignIn ? (
                  <button type="submit" name="intent" value="link" aria-label={t("linked.linkLabel", { provider: provider.name })}>
                    {t("linked.link")}
                  </button>
                ) : (
                  <span className="muted">{t("linked.notLinked")}</span>
                )}
              </Form>
            )}
          </li>
        ))}
      </ul>
      {page.providers.length === 0 ? <p className="muted">{t("linked.none")}</p> : null}
    </section>
  );
}
