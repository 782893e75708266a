// "Sign up with a passkey" on the sign-up page (docs/decisions/017-passkey-sign-up.md): it takes the name and
// e-mail from the page's form, has a code mailed to that address, and once the code is entered the browser
// creates the passkey and the account exists, verified, with no password. Rendered only with JavaScript.
import { useEffect, useState, type KeyboardEvent, type MouseEvent } from "react";
import { authClient } from "~/client/auth-client";
import { continueTo, describePasskeyError } from "~/components/passkey-ui";

export function PasskeySignUp({ redirectTo }: { redirectTo: string | null }) {
  const [supported, setSupported] = useState(false);
  const [email, setEmail] = useState<string | null>(null);
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => setSupported(authClient.passkey.supported()), []);
  if (!supported) return null;

  async function sendCode(event: MouseEvent<HTMLButtonElement>) {
    const form = event.currentTarget.form;
    const value = (field: string) => ((form?.elements.namedItem(field) as HTMLInputElement | null)?.value ?? "").trim();
    const input = { name: value("name"), email: value("email") };
    setError(null);
    if (!input.name || !input.email) return setError("Enter your name and email address above first.");
    setBusy(true);
    const { error } = await authClient.passkey.signUp.sendCode(input);
    setBusy(false);
    if (error) return setError(error.code === "VALIDATION_ERROR" ? "Check your name and email address above." : describePasskeyError(error));
    setEmail(input.email);
  }

  async function create() {
    setError(null);
    setBusy(true);
    const { data, error } = await authClient.passkey.signUp.complete({ code });
    if (data) return window.location.assign(continueTo(redirectTo));
    setBusy(false);
    setError(error.code === "VALIDATION_ERROR" ? "Enter the 6-digit code from the email." : describePasskeyError(error));
  }

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Enter here creates the passkey; it must not submit the password form around it.
    if (event.key === "Enter") {
      event.preventDefault();
      void create();
    }
  };

  return (
    <div className="passkey-sign-up" role="group" aria-labelledby="passkey-sign-up-heading">
      <h2 id="passkey-sign-up-heading">Or sign up with a passkey</h2>
      {email === null ? (
        <>
          <p className="muted">No password needed: we email you a code to prove the address is yours, then your device creates a passkey.</p>
          <button type="button" className="secondary" onClick={sendCode} disabled={busy} aria-disabled={busy || undefined}>
            Sign up with a passkey
          </button>
        </>
      ) : (
        <>
          <p className="notice" role="status">
            We sent a code to {email}. Enter it here, then create your passkey.
          </p>
          <div className="field">
            <label htmlFor="passkey-sign-up-code">Code from the email</label>
            <input
              id="passkey-sign-up-code"
              type="text"
              autoComplete="one-time-code"
              inputMode="numeric"
              spellCheck={false}
              maxLength={20}
              value={code}
              onChange={(event) => setCode(event.target.value)}
              onKeyDown={onKeyDown}
            />
          </div>
          <button type="button" onClick={() => void create()} disabled={busy} aria-disabled={busy || undefined}>
            Create my passkey
          </button>{" "}
          <button type="button" className="secondary" onClick={sendCode} disabled={busy}>
            Send a new code
          </button>
        </>
      )}
      {error ? (
        <ul className="errors" role="alert">
          <li>{error}</li>
        </ul>
      ) : null}
    </div>
  );
}
