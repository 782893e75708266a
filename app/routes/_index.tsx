// The home page: what Latchkey is, in words that claim only what is built, and the two ways in.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { StatusMessage } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { takeFlashContent } from "~/http/flash.server";
import { requestContext } from "~/http/page.server";
import { pageSession } from "~/http/page-session.server";

export const meta = pageTitle("Sign-in for your apps");

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = await requestContext(request, context, null);
  const session = await pageSession(ctx, context);
  const flash = takeFlashContent(request, ctx.responseHeaders);
  return data({ user: session ? { name: session.user.name, email: session.user.email } : null, flash: flash?.text || null, flashLink: flash?.link ?? null }, { headers: ctx.responseHeaders });
}

export default function Home() {
  const { user, flash, flashLink } = useLoaderData<typeof loader>();
  return (
    <section className="hero">
      <h1>Sign-in for your apps</h1>
      {flash ? (
        <StatusMessage>
          {flash}
          {flashLink ? (
            <>
              {" "}
              <Link to={flashLink.href}>{flashLink.text}</Link>
            </>
          ) : null}
        </StatusMessage>
      ) : null}
      <p className="lead">
        Latchkey keeps accounts for you: sign-up and sign-in with an email address and password, email verification,
        password reset, and a place where people manage their profile and the devices they are signed in on.
      </p>
      {user ? (
        <>
          <p>Signed in as {user.name || user.email}.</p>
          <div className="actions">
            <Link to="/account" className="button-link primary">
              Go to your account
            </Link>
          </div>
        </>
      ) : (
        <div className="actions">
          <Link to="/sign-up" className="button-link primary">
            Create an account
          </Link>
          <Link to="/sign-in" className="button-link secondary">
            Sign in
          </Link>
        </div>
      )}
    </section>
  );
}
