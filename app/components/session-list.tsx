// One row per signed-in browser or device, with its own Revoke button: the account's Sessions page and an
// admin's view of an account show the same list, the account marking "this device", the admin an admin's
// impersonation.
import { Form } from "@remix-run/react";
import { describeDevice } from "~/auth/core/device";
import { SubmitButton } from "~/components/forms";
import { relativeTime, utcTime } from "~/components/time";

export interface SessionRowData {
  id: string;
  device: string;
  ipAddress: string | null;
  lastActive: string;
  lastActiveAt: string;
  lastActiveUtc: string;
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
    current: session.id === currentId,
    impersonation: session.impersonatedBy !== null,
  };
}

export function SessionRow({ session: s, testId }: { session: SessionRowData; testId: string }) {
  return (
    <li data-testid={testId}>
      <div>
        <div>
          {s.device}
          {s.current ? <strong> · this device</strong> : null}
          {s.impersonation ? <strong> · an admin acting as them</strong> : null}
        </div>
        <div className="muted">
          {s.ipAddress ? `${s.ipAddress} · ` : ""}
          {s.current ? (
            "active now"
          ) : (
            <>
              last active <time dateTime={s.lastActiveAt} title={s.lastActiveUtc}>{s.lastActive}</time>
            </>
          )}
        </div>
      </div>
      {s.current ? null : (
        <Form method="post" className="inline">
          <input type="hidden" name="sessionId" value={s.id} />
          <SubmitButton name="intent" value="revoke-session" className="secondary">
            Revoke<span className="visually-hidden"> {s.device}, last active {s.lastActive}</span>
          </SubmitButton>
        </Form>
      )}
    </li>
  );
}
