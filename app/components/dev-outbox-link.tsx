// In development (no SMTP server, a localhost BASE_URL, read from this machine) mail is kept in the outbox:
// wherever a page says "we sent you a link", it also links there. The loader decides with `mayReadLocalOutbox`.
import { Link } from "@remix-run/react";

export function DevOutboxLink({ show }: { show: boolean | undefined }) {
  if (!show) return null;
  return (
    <span className="dev-outbox">
      {" "}
      Development: the mail is in <Link to="/dev/outbox">the outbox</Link>.
    </span>
  );
}
