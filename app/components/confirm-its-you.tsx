// Shown where an account page would offer a new way in (add a passkey, link an account, set a password) while
// the session's sign-in is no longer recent (docs/decisions/030-new-ways-in-need-a-recent-sign-in.md): why, and
// a plain link to sign in again that comes back to the page. Works without JavaScript.
export function ConfirmItsYou({ what, href }: { what: string; href: string }) {
  return (
    <div className="notice" data-testid="confirm-its-you">
      <p>
        For your safety, {what} needs a recent sign-in, and yours was a while ago. Confirm it's you by signing in
        again; you will come back to this page.
      </p>
      <a className="button" href={href}>
        Sign in again
      </a>
    </div>
  );
}
