// In development (no SMTP server, a localhost BASE_URL, read from this machine) mail is kept in the outbox:
// wherever a page says "we sent you a link", it also links there. The loader decides with `mayReadLocalOutbox`.
import { Link } from "@remix-run/react";
import { useT } from "~/i18n/react";

export function DevOutboxLink({ show }: { show: boolean | undefined }) {
  const { rich } = useT();
  if (!show) return null;
  return (
    <span className="dev-outbox">
      {" "}
      {rich("outbox.development", {}, { link: (chunks) => <Link key="outbox" to="/dev/outbox">{chunks}</Link> })}
    </span>
  );
}
