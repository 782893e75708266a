import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { BrandMark } from "~/components/brand-mark";
import { useNonce } from "~/components/nonce";
import { ImpersonationBanner } from "~/components/impersonation-banner";
import { SignedInUser } from "~/components/signed-in-user";
import { viewerOf } from "~/http/viewer.server";
import stylesUrl from "~/styles.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: stylesUrl }];
export const meta: MetaFunction = () => [{ title: "Latchkey" }];

/**
 * Whether a page action on this request answered with errors (pages' titles then start "Error: ", page-title.ts),
 * and who is signed in, for the header.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return { formFailed: context.formFailed === true, viewer: await viewerOf(request, context) };
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  // Absent when the root loader itself failed (the error page): the header then shows no one.
  const root = useRouteLoaderData<typeof loader>("root");
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        {root?.viewer?.impersonated ? <ImpersonationBanner viewer={root.viewer} /> : null}
        <header className="site-header">
          <Link to="/" className="brand">
            <BrandMark />
            Latchkey
          </Link>
          <SignedInUser viewer={root?.viewer ?? null} />
        </header>
        <main>{children}</main>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const title = notFound ? "Page not found" : isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : "Something went wrong";
  return (
    <section>
      <h1>{title}</h1>
      {notFound ? <p>There is no page at this address. Check it for typos, or start again from the home page.</p> : null}
      <p>
        <Link to="/">Return to the home page</Link>
      </p>
    </section>
  );
}
