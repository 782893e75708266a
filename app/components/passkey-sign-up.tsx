// "Sign up with a passkey" on the sign-up page (docs/decisions/017-passkey-sign-up.md): it takes the name and
// e-mail from the page's form, has a code mailed to that address, and once the code is entered the browser
// creates the passkey and the account exists, verified, with no password. Rendered only with JavaScript.
import { useEffect, useState, type KeyboardEvent } from "react";
import { authClient } from "~/client/auth-client";
import { StatusMessage } from "~/components/forms";
import { continueTo, describePasskeyError, usePasskeyCeremony } from "~/components/passkey-ui";
import { useT } from "~/i18n/react";

export function PasskeySignUp({ redirectTo }: { redirectTo: string | null }) {
  const { t, rich } = useT();
  const [supported, setSupported] = useState(false);
  const [email, setEmail] = useState<string | null>(null);
  const [code, setCode] = useState("");
  /** Counts the codes sent, so "Send a new code" confirms (and focuses) its own sending. */
  const [sent, setSent] = useState(0);
  const ceremony = usePasskeyCeremony("passkey-sign-up");

  useEffect(() => setSupported(authClient.passkey.supported()), []);
  if (!supported) return null;

  const sendCode = (form: HTMLFormElement | null) =>
    ceremony.run(async () => {
      const value = (field: string) => ((form?.elements.namedItem(field) as HTMLInputElement | null)?.value ?? "").trim();
      const input = { name: value("name"), email: value("email") };
      if (!input.name || !input.email) return { ok: false, text: "Enter your name and email address above first." };
      const { error } = await authClient.passkey.signUp.sendCode(input);
      if (error) return { ok: false, text: error.code === "VALIDATION_ERROR" ? "Check your name and email address above." : describePasskeyError(error) };
      setEmail(input.email);
      setSent((count) => count + 1);
    });

  const create = () =>
    ceremony.run(async () => {
      const { data, error } = await authClient.passkey.signUp.complete({ code });
      if (data) {
        window.location.assign(continueTo(redirectTo));
        return new Promise<never>(() => {}); // busy until the next page is there
      }
      return { ok: false, text: error.code === "VALIDATION_ERROR" ? "Enter the 6-digit code from the email." : describePasskeyError(error) };
    });

  /** The sign-up form around this group, whose name and e-mail the code is sent for. */
  const form = () => (document.getElementById("passkey-sign-up-heading")?.closest("form") ?? null) as HTMLFormElement | null;

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Enter here creates the passkey; it must not submit the password form around it.
    if (event.key === "Enter") {
      event.preventDefault();
      void create();
    }
  };

  return (
    <div className="passkey-sign-up" role="group" aria-labelledby="passkey-sign-up-heading">
      <h2 id="passkey-sign-up-heading">{t("passkeySignUp.heading")}</h2>
      {ceremony.message}
      {email === null ? (
        <>
          <p className="muted">{t("passkeySignUp.lead")}</p>
          <button className="secondary" {...ceremony.buttonProps(() => void sendCode(form()))}>
            {t("passkeySignUp.button")}
          </button>
        </>
      ) : (
        <>
          {/* Focused once sent: the button pressed is gone, and the focus must not fall to the page. */}
          <StatusMessage id="passkey-sign-up-sent" focusKey={sent}>
            {rich("passkeySignUp.sent", { email }, { ltr: (chunks) => <span key="email" dir="ltr">{chunks}</span> })}
          </StatusMessage>
          <div className="field">
            <label htmlFor="passkey-sign-up-code">{t("passkeySignUp.codeLabel")}</label>
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
              aria-describedby={ceremony.describedBy}
            />
          </div>
          <button {...ceremony.buttonProps(() => void create())}>{t("passkeySignUp.create")}</button>{" "}
          <button className="secondary" {...ceremony.buttonProps(() => void sendCode(form()))}>
            {t("passkeySignUp.resend")}
          </button>
        </>
      )}
    </div>
  );
}
