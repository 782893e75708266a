// Other ways to sign in, offered under the password form.
import { Link } from "@remix-run/react";
import { useT } from "~/i18n/react";

export function SignInAlternatives({ redirectTo }: { redirectTo: string | null }) {
  const { t } = useT();
  const keep = redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : "";
  return (
    <p className="muted">
      <Link to={`/sign-in/code${keep}`}>{t("signIn.emailCode")}</Link>
      {" · "}
      <Link to={`/sign-in/sso${keep}`}>{t("sso.title")}</Link>
    </p>
  );
}
