import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { Link, Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { useNonce } from "~/components/nonce";
import stylesUrl from "~/styles.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: stylesUrl }];
export const meta: MetaFunction = () => [{ title: "Latchkey" }];

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        <header className="site-header">
          <Link to="/" className="brand">
            Latchkey
          </Link>
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
  const title = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : "Something went wrong";
  return (
    <section>
      <h1>{title}</h1>
      <p>
        <Link to="/">Return to the home page</Link>
      </p>
    </section>
  );
}
