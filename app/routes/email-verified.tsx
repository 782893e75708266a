// Where e-mailed verification and change links land (their default callbackURL). What happened comes from the
// link's own redirect (a one-time message set by GET /api/auth/verify-email on success, `?error=` on failure):
// opened directly, with neither, the page claims nothing.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { StatusMessage } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { takeFlashContent } from "~/http/flash.server";
import { verifyLinkProblem } from "~/http/page-messages.server";

export const meta = pageTitle<{ error: string | null }>("Email confirmation", (data) => Boolean(data.error));

export async function loader({ request }: LoaderFunctionArgs) {
  const headers = new Headers();
  const error = new URL(request.url).searchParams.get("error");
  const flash = error ? null : takeFlashContent(request, headers);
  return data({ error: verifyLinkProblem(error), message: flash?.text || null, link: flash?.link ?? null }, { headers });
}

export default function EmailVerified() {
  const { error, message, link } = useLoaderData<typeof loader>();
  return (
    <section className="narrow">
      {error ? (
        <>
          <h1>We could not confirm your email address</h1>
          <p>{error}</p>
        </>
      ) : message ? (
        <>
          <h1>Email confirmation</h1>
          <StatusMessage>
            {message}
            {link ? (
              <>
                {" "}
                <Link to={link.href}>{link.text}</Link>
              </>
            ) : null}
          </StatusMessage>
        </>
      ) : (
        <>
          <h1>Email confirmation</h1>
          <p>There is nothing to confirm here. The links we send by email bring you to this page with their result.</p>
        </>
      )}
      <p>
        <Link to="/account">Go to your account</Link>
      </p>
    </section>
  );
}
