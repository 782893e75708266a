import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { describeDevice } from "~/auth/device";
import { listSessions, revokeSessionById, signOut } from "~/auth/session.server";
import { ErrorList, SubmitButton } from "~/components/forms";
import { requestContext, requirePageSession } from "~/http/page.server";
import { isAuthError } from "~/auth/errors";

export const meta: MetaFunction = () => [{ title: "Your account · Latchkey" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [{ user, session }, ctx] = await requirePageSession(request, context);
  const sessions = await listSessions(user.id);
  return data(
    {
      user: { name: user.name, email: user.email, emailVerified: user.emailVerified },
      sessions: sessions.map((s) => ({
        id: s.id,
        current: s.id === session.id,
        device: describeDevice(s.userAgent),
        ipAddress: s.ipAddress,
        lastActiveAt: s.updatedAt.toISOString(),
        createdAt: s.createdAt.toISOString(),
      })),
    },
    { headers: ctx.responseHeaders },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const intent = form.get("intent");
  try {
    if (intent === "sign-out") {
      const ctx = await requestContext(request, context, "/sign-out");
      await signOut(ctx);
      throw redirect("/", { headers: ctx.responseHeaders });
    }
    const [current, ctx] = await requirePageSession(request, context);
    if (intent === "revoke-session") {
      await revokeSessionById(ctx, current, String(form.get("sessionId") ?? ""));
      throw redirect("/account", { headers: ctx.responseHeaders });
    }
    return data({ intent, error: "Unknown action" }, { status: 400 });
  } catch (error) {
    if (isAuthError(error)) return data({ intent, error: error.message }, { status: error.status });
    throw error;
  }
}

const formatTime = (iso: string) => new Date(iso).toISOString().replace("T", " ").slice(0, 16) + " UTC";

export default function Account() {
  const { user, sessions } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <section>
        <h1>Your account</h1>
        <p>
          <strong data-testid="account-name">{user.name}</strong>
          <br />
          <span data-testid="account-email">{user.email}</span>
        </p>
        <Form method="post">
          <SubmitButton name="intent" value="sign-out">
            Sign out
          </SubmitButton>
        </Form>
      </section>
      <section aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Sessions</h2>
        {actionData?.error ? <ErrorList errors={[actionData.error]} /> : null}
        <ul className="sessions">
          {sessions.map((s) => (
            <li key={s.id} data-testid="session-row">
              <div>
                <div>
                  {s.device}
                  {s.current ? <strong> · this device</strong> : null}
                </div>
                <div className="muted">
                  {s.ipAddress ? `${s.ipAddress} · ` : ""}last active {formatTime(s.lastActiveAt)}
                </div>
              </div>
              {s.current ? null : (
                <Form method="post" className="inline">
                  <input type="hidden" name="sessionId" value={s.id} />
                  <button type="submit" name="intent" value="revoke-session" className="secondary">
                    Revoke
                  </button>
                </Form>
              )}
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
