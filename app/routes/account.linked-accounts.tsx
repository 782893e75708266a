// /account/linked-accounts: every enabled provider with "Link" or "Unlink", and the password shown as "Password".
// Plain forms: linking redirects to the provider and back, without JavaScript.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { AuthError } from "~/auth/errors";
import { requireSession } from "~/auth/session.server";
import { unlinkAccount } from "~/auth/social/accounts.server";
import { linkedAccountsOf, socialErrorMessage } from "~/auth/social/pages.server";
import { startSocialFlow } from "~/auth/social/sign-in.server";
import { handleForm, requirePageSession } from "~/http/page.server";

export const meta: MetaFunction = () => [{ title: "Linked accounts · Latchkey" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [{ user }, ctx] = await requirePageSession(request, context);
  const params = new URL(request.url).searchParams;
  return data(
    {
      ...(await linkedAccountsOf(user.id)),
      linked: params.get("linked") === "1",
      error: socialErrorMessage(params.get("error")),
    },
    { headers: ctx.responseHeaders },
  );
}

const schema = z.object({ intent: z.enum(["link", "unlink"]), provider: z.string().min(1).max(64) });

const UNLINK_WORDS: Record<string, string> = {
  YOU_CANT_UNLINK_YOUR_LAST_ACCOUNT: "This is your only way to sign in. Set a password or link another account first.",
  SESSION_IS_NOT_FRESH: "For your safety, sign out and sign in again, then unlink.",
  ACCOUNT_NOT_FOUND: "That account is not linked.",
};

export async function action({ request, context }: ActionFunctionArgs) {
  const outcome = await handleForm({
    request,
    context,
    rateLimitAs: "/link-social",
    schema,
    run: async (value, ctx) => {
      const current = await requireSession(ctx);
      if (value.intent === "link") {
        const here = "/account/linked-accounts";
        return { go: (await startSocialFlow(ctx, { provider: value.provider, callbackURL: `${here}?linked=1`, errorCallbackURL: here }, current.user.id)).url };
      }
      try {
        await unlinkAccount(current, { providerId: value.provider });
        return { message: "Account unlinked." };
      } catch (error) {
        if (error instanceof AuthError && UNLINK_WORDS[error.code]) return { error: UNLINK_WORDS[error.code] };
        throw error;
      }
    },
  });
  if (!outcome.ok) return data({ message: null, error: outcome.result.error?.[""]?.[0] ?? "Something went wrong." }, outcome.init);
  const value = outcome.value;
  if ("go" in value && value.go) throw redirect(value.go, { headers: outcome.ctx.responseHeaders });
  return data({ message: value.message ?? null, error: value.error ?? null }, { status: value.error ? 400 : 200, headers: outcome.ctx.responseHeaders });
}

export default function LinkedAccounts() {
  const page = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const message = result?.message ?? (page.linked ? "Account linked." : null);
  const error = result?.error ?? page.error;
  return (
    <section aria-labelledby="linked-heading">
      <h1 id="linked-heading">Linked accounts</h1>
      <p className="muted">Sign in with any of these. You can't remove the last one.</p>
      {message ? (
        <p className="notice" role="status" tabIndex={-1}>
          {message}
        </p>
      ) : null}
      {error ? (
        <p className="warning" role="alert" tabIndex={-1}>
          {error}
        </p>
      ) : null}
      <ul className="linked-accounts">
        <li>
          <span>Password</span>
          <span className="muted">{page.hasPassword ? "Set" : "Not set"}</span>
        </li>
        {page.providers.map((provider) => (
          <li key={provider.id}>
            <span>{provider.name}</span>
            <Form method="post" reloadDocument>
              <input type="hidden" name="provider" value={provider.id} />
              {provider.linked ? (
                <button type="submit" name="intent" value="unlink" className="secondary" aria-label={`Unlink ${provider.name}`}>
                  Unlink
                </button>
              ) : (
                <button type="submit" name="intent" value="link" aria-label={`Link ${provider.name}`}>
                  Link
                </button>
              )}
            </Form>
          </li>
        ))}
      </ul>
      {page.providers.length === 0 ? <p className="muted">No sign-in providers are configured on this server.</p> : null}
    </section>
  );
}
