import type { LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { getSession } from "~/auth/session.server";
import { requestContext } from "~/http/page.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = await requestContext(request, context, null);
  const session = await getSession(ctx);
  return data({ user: session ? { name: session.user.name } : null }, { headers: ctx.responseHeaders });
}

export default function Home() {
  const { user } = useLoaderData<typeof loader>();
  return (
    <section>
      <h1>Sign-in with passkeys and team organizations</h1>
      {user ? (
        <>
          <p>Signed in as {user.name}.</p>
          <p>
            <Link to="/account">Your account</Link>
          </p>
          <Form method="post" action="/account">
            <button type="submit" name="intent" value="sign-out" className="secondary">
              Sign out
            </button>
          </Form>
        </>
      ) : (
        <ul>
          <li>
            <Link to="/sign-in">Sign in</Link>
          </li>
          <li>
            <Link to="/sign-up">Create an account</Link>
          </li>
        </ul>
      )}
    </section>
  );
}
