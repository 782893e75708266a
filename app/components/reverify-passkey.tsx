// "Confirm it's you" with a passkey (step-up, ADR 059): a button that asks one of the signed-in account's passkeys
// and goes back to the page that asked. Rendered only once JavaScript runs (a passkey needs it); the page's other
// ways work without.
import { useEffect, useState } from "react";
import { authClient } from "~/client/auth-client";
import { continueTo, describePasskeyError, usePasskeyCeremony } from "~/components/passkey-ui";
import { useT } from "~/i18n/react";

export function ReverifyWithPasskey({ redirectTo }: { redirectTo: string }) {
  const [supported, setSupported] = useState(false);
  const ceremony = usePasskeyCeremony("reverify-passkey");
  const { t } = useT();
  useEffect(() => setSupported(authClient.passkey.supported()), []);
  if (!supported) return null;

  const confirm = () =>
    ceremony.run(async () => {
      const { data, error } = await authClient.passkey.reverify();
      if (data) {
        window.location.assign(continueTo(redirectTo));
        return new Promise<never>(() => {}); // busy until the next page is there
      }
      return { ok: false, text: describePasskeyError(error) };
    });

  return (
    <section aria-labelledby="reverify-passkey-heading">
      <h2 id="reverify-passkey-heading">{t("reverify.passkeyTitle")}</h2>
      {ceremony.message}
      <button className="secondary" {...ceremony.buttonProps(() => void confirm())}>
        {t("reverify.passkeyButton")}
      </button>
    </section>
  );
}
