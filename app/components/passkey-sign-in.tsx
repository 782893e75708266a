// The sign-in page's passkey part: a "Sign in with a passkey" button and passkey autofill (conditional UI) on the
// e-mail field, whose autocomplete includes "webauthn". Rendered only once JavaScript runs: without it the page
// is the password form alone.
import { useEffect, useRef, useState } from "react";
import { authClient } from "~/client/auth-client";
import { continueTo, describePasskeyError, usePasskeyCeremony } from "~/components/passkey-ui";
import { useT } from "~/i18n/react";

export function PasskeySignIn({ redirectTo }: { redirectTo: string | null }) {
  const [supported, setSupported] = useState(false);
  const ceremony = usePasskeyCeremony("passkey-sign-in");
  const { t } = useT();
  const done = useRef(false);

  const signedIn = () => {
    done.current = true;
    window.location.assign(continueTo(redirectTo));
  };

  const active = useRef(true);
  /** Offers passkeys in the e-mail field's autofill until one is picked, the page goes away or a button replaces it. */
  const startAutofill = () => {
    authClient.passkey.autofillSupported().then((autofill) => {
      if (!autofill || !active.current) return;
      authClient.signIn.passkey({ autoFill: true }).then(({ data, error }) => {
        if (!active.current || done.current) return;
        if (data) signedIn();
        // A cancelled or replaced autofill request is not worth a message; a refused passkey is.
        else if (error.source === "server") ceremony.show({ ok: false, text: describePasskeyError(error) });
      });
    });
  };

  useEffect(() => {
    if (!authClient.passkey.supported()) return;
    setSupported(true);
    active.current = true;
    startAutofill();
    return () => {
      active.current = false;
      authClient.passkey.cancel();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (!supported) return null;

  const signInWithButton = () =>
    ceremony.run(async () => {
      const { data, error } = await authClient.signIn.passkey();
      if (data) {
        signedIn();
        // Busy until the next page is there: the button must not be pressed again meanwhile.
        return new Promise<never>(() => {});
      }
      startAutofill(); // the button's ceremony replaced the autofill request: offer autofill again
      return { ok: false, text: describePasskeyError(error) };
    });

  return (
    <div className="passkey-sign-in">
      <p className="muted">{t("passkeySignIn.lead")}</p>
      {ceremony.message}
      <button className="secondary" {...ceremony.buttonProps(() => void signInWithButton())}>
        {t("passkeySignIn.button")}
      </button>
    </div>
  );
}
