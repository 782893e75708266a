// Where verification links land (the default callbackURL of e-mailed links).
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";

export const meta: MetaFunction = () => [{ title: "E-mail verification · Latchkey" }];

const EXPLANATIONS: Record<string, string> = {
  token_expired: "The link has expired. Sign in and ask for a new verification e-mail.",
  invalid_token: "The link is invalid or was already used.",
  user_not_found: "The account this link was sent for no longer uses that address.",
  unauthorized: "You are signed in as somebody else. Sign out and open the link again.",
};

export async function loader({ request }: LoaderFunctionArgs) {
  const error = new URL(request.url).searchParams.get("error");
  return { error: error ? (EXPLANATIONS[error] ? error : "invalid_token") : null };
}

export default function EmailVerified() {
  const { error } = useLoaderData<typeof loader>();
  return (
    <section>
      {error ? (
        <>
          <h1>We could not verify your e-mail address</h1>
          <p>{EXPLANATIONS[error]}</p>
        </>
      ) : (
        <>
          <h1>Your e-mail address is verified</h1>
          <p>Thank you. Your account is ready.</p>
        </>
      )}
      <p>
        <Link to="/account">Go to your account</Link>
      </p>
    </section>
  );
}
