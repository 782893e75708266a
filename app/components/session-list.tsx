// One row per signed-in browser or device, with its own Revoke button: the account's Sessions page and an
// admin's view of an account show the same list, the account marking "this device", the admin an admin's
// impersonation.
import { Form } from "@remix-run/react";
import { describeDevice } from "~/auth/core/device";
import { SubmitButton } from "~/components/forms";
import { relativeTime, utcTime } from "~/components/time";
import { useT } from "~/i18n/react";

export interface SessionRowData {
  id: string;
  device: string;
  ipAddress: string | null;
  lastActive: string;
  lastActiveAt: string;
  lastActiveUtc: string;
  /** When the page was made: relative words are worked out from it, the same on the server and in the browser. */
  now: string;
  /** The session the page is being read with: never revoked from here. */
  current: boolean;
  /** An admin acting as the account's owner. */
  impersonation: boolean;
}

/** What a row shows of a stored session (a loader's work; `currentId` is the reader's own session's). */
export function sessionRow(
  session: { id: string; userAgent: string | null; ipAddress: string | null; updatedAt: Date; impersonatedBy: string | null },
  now: Date,
  currentId?: string,
): SessionRowData {
  return {
    id: session.id,
    device: describeDevice(session.userAgent),
    ipAddress: session.ipAddress,
    lastActive: relativeTime(session.updatedAt, now),
    lastActiveAt: session.updatedAt.toISOString(),
    lastActiveUtc: utcTime(session.updatedAt),
    now: now.toISOString(),
    current: session.id === currentId,
    impersonation: session.impersonatedBy !== null,
  };
}

export function SessionRow({ session: s, testId }: { session: SessionRowData; testId: string }) {
  const { t, rich, device, relative, dateTime } = useT();
  const at = new Date(s.lastActiveAt);
  const when = relative(at, new Date(s.now));
  const deviceName = device(s.device);
  return (
    <li data-testid={testId}>
      <div>
        <div>
          {deviceName}
          {s.current ? <strong>{t("sessions.thisDevice")}</strong> : null}
          {s.impersonation ? <strong>{t("sessions.adminActing")}</strong> : null}
        </div>
        <div className="muted">
          {s.ipAddress ? (
            <>
              <span dir="ltr">{s.ipAddress}</span>
              {" · "}
            </>
          ) : null}
          {s.current
            ? t("sessions.activeNow")
            : rich("sessions.lastActive", { when }, { time: (chunks) => <time dateTime={s.lastActiveAt} title={dateTime(at)}>{chunks}</time> })}
        </div>
      </div>
      {s.current ? null : (
        <Form method="post" className="inline">
          <input type="hidden" name="sessionId" value={s.id} />
          <SubmitButton name="intent" value="revoke-session" className="secondary">
            {t("sessions.revoke")}
            <span className="visually-hidden"> {t("sessions.revokeHidden", { device: deviceName, when })}</span>
          </SubmitButton>
        </Form>
      )}
    </li>
  );
}
