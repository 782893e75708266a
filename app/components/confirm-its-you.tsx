import { useT } from "~/i18n/react";
// Shown where an account page would offer a sensitive change (add a passkey, link an account, set a password)
// while the session has not confirmed it's its user recently (docs/decisions/030-new-ways-in-need-a-recent-
// sign-in.md, 059-step-up-confirm-its-you.md): why, and a plain link to "Confirm it's you", which comes back to
// the page. Works without JavaScript.
export function ConfirmItsYou({ what, href }: { what: string; href: string }) {
  const { t, said } = useT();
  return (
    <div className="notice" data-testid="confirm-its-you">
      <p>
        {said(`For your safety, ${what} needs you to confirm it's you, because you signed in a while ago. It takes a moment, and you will come back to this page.`)}
      </p>
      <a className="button" href={href}>
        {t("confirmItsYou.button")}
      </a>
    </div>
  );
}
