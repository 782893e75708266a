// Other ways to sign in, offered under the password form.
import { Link } from "@remix-run/react";

export function SignInAlternatives({ redirectTo }: { redirectTo: string | null }) {
  const keep = redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : "";
  return (
    <p className="muted">
      <Link to={`/sign-in/code${keep}`}>Email me a sign-in code</Link>
      {" · "}
      <Link to={`/sign-in/sso${keep}`}>Sign in with SSO</Link>
    </p>
  );
}
