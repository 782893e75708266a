// "Add a passkey" on the account page: runs the registration ceremony in the browser (so it needs JavaScript;
// without it the button is not shown and the page says so). The client then refetches the passkey list, which
// the page shows through usePasskeys(). Its outcome is focused, as every account page's is: the confirmation at
// once, a refusal in the error summary.
import { useEffect, useState } from "react";
import { authClient } from "~/client/auth-client";
import { ErrorSummary, StatusMessage } from "~/components/forms";
import { describePasskeyError } from "~/components/passkey-ui";

export function AddPasskey() {
  const [supported, setSupported] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  /** Counts the tries, so a second confirmation takes the focus again. */
  const [tries, setTries] = useState(0);

  useEffect(() => setSupported(authClient.passkey.supported()), []);

  async function onClick() {
    setBusy(true);
    setStatus(null);
    const { data, error } = await authClient.passkey.addPasskey();
    setBusy(false);
    setTries((count) => count + 1);
    if (data) {
      setStatus({ ok: true, text: "Passkey added. You can now sign in with it." });
    } else {
      setStatus({ ok: false, text: describePasskeyError(error) });
    }
  }

  if (supported === null) {
    return (
      <noscript>
        <p className="muted">Adding a passkey needs JavaScript.</p>
      </noscript>
    );
  }
  if (!supported) return <p className="muted">This browser cannot create passkeys.</p>;
  return (
    <div>
      <button type="button" onClick={onClick} disabled={busy} aria-disabled={busy || undefined}>
        Add a passkey
      </button>
      {status?.ok ? (
        <StatusMessage id="passkey-added" focusKey={tries}>
          {status.text}
        </StatusMessage>
      ) : status ? (
        <ErrorSummary key={tries} id="passkey-add-error-summary" errors={[status.text]} />
      ) : null}
    </div>
  );
}
