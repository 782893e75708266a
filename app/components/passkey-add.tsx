// "Add a passkey" on the account page: runs the registration ceremony in the browser (so it needs JavaScript;
// without it the button is not shown and the page says so). The client then refetches the passkey list, which
// the page shows through usePasskeys(). Its outcome is shown at the top of the page, focused, as every account
// page's is (the page renders `ceremony.message` there): the confirmation, or a refusal in the error summary.
import { useEffect, useState } from "react";
import { authClient } from "~/client/auth-client";
import { describePasskeyError, type usePasskeyCeremony } from "~/components/passkey-ui";
import { useT } from "~/i18n/react";

export const ADD_PASSKEY_CEREMONY = "passkey-add";

export function AddPasskey({ ceremony }: { ceremony: ReturnType<typeof usePasskeyCeremony> }) {
  const [supported, setSupported] = useState<boolean | null>(null);
  const { t } = useT();

  useEffect(() => setSupported(authClient.passkey.supported()), []);

  const add = () =>
    ceremony.run(async () => {
      const { data, error } = await authClient.passkey.addPasskey();
      return data ? { ok: true, text: "Passkey added. You can now sign in with it." } : { ok: false, text: describePasskeyError(error) };
    });

  if (supported === null) {
    return (
      <noscript>
        <p className="muted">{t("passkeys.needsJs")}</p>
      </noscript>
    );
  }
  if (!supported) return <p className="muted">{t("passkeys.unsupported")}</p>;
  return (
    <div>
      <button {...ceremony.buttonProps(() => void add())}>{t("passkeys.add")}</button>
    </div>
  );
}
