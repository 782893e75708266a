// Other ways to sign in, offered under the password form.
import { Link } from "@remix-run/react";

export function SignInAlternatives({ redirectTo }: { redirectTo: string | null }) {
  return (
    <p className="muted">
      <Link to={`/sign-in/code${redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : ""}`}>Email me a sign-in code</Link>
    </p>
  );
}
