// What follows a committed security event (docs/decisions/048-security-events.md): one JSON line on standard
// output for a log shipper (AUTH_EVENT_LOG=stdout), and the owner's mail for the events that warrant one. Called
// only after the event's transaction committed (record.server.ts), and the mail after the answer, so neither a
// mail server's hiccup nor its speed changes what the caller sees.
import { absoluteUrl, PAGES } from "~/auth/core/links.server";
import { takeFromQuota } from "~/auth/rate-limit/limits.server";
import type { SecurityEventDetails } from "~/auth/security-events/types";
import { adminActOf, isAdminAct, mailAdminAct } from "~/auth/security-events/notify-admin-acts.server";
import { afterResponse } from "~/background-work.server";
import { db } from "~/db.server";
import { sendMail } from "~/email/mailer.server";
import { emails, type NewWayIn, type SignInHow } from "~/email/templates.server";
import { env } from "~/env.server";

export const ACTIVITY_PAGE = PAGES.activity;

interface StoredEvent {
  id: string;
  userId: string;
  type: string;
  createdAt: Date;
  ipAddress: string | null;
  userAgent: string | null;
  device: string | null;
  sessionId: string | null;
  actorUserId: string | null;
  details: string;
}

/**
 * At most one new-device mail an hour for the same device in words and address: what the mail would say again.
 * A flood of sign-ins is collapsed, not dropped at the cap, also from a client that keeps no cookies (every one
 * of its sign-ins is a new device id); each is still marked new in the activity list (issue 39, ADR 074).
 */
const NEW_DEVICE_MAIL_RULE = { windowSeconds: 60 * 60, max: 1 };

export function announceEvent(event: StoredEvent, extra: { ownerEmail?: string } = {}): void {
  const details = JSON.parse(event.details) as SecurityEventDetails;
  if (env.AUTH_EVENT_LOG === "stdout") {
    const { details: _, ...fields } = event;
    process.stdout.write(`${JSON.stringify({ kind: "security_event", ...fields, createdAt: event.createdAt.toISOString(), details })}\n`);
  }
  if (isAdminAct(event)) {
    const act = adminActOf(event.type, details, mailsFor(event.type, details));
    if (act) afterResponse(() => mailAdminAct(event, act));
    return;
  }
  if (mailsFor(event.type, details)) afterResponse(() => mailOwner(event, details, extra.ownerEmail));
}

function mailsFor(type: string, details: SecurityEventDetails): boolean {
  // A new browser confirmed with a code mailed a moment ago (ADR 058) was told about in that mail already.
  if (type === "sign_in") return details.newDevice === true && details.deviceVerified !== true && env.AUTH_NEW_DEVICE_MAIL === "on";
  // An application given offline_access holds a way in that outlives every session (ADR 055).
  if (type === "application_authorized") return details.lastingAccess === true;
  if (type === "account_locked") return true; // recorded once per lock (ADR 057)
  return ["password_changed", "password_reset", "password_set", "two_factor_disabled", "passkey_added", "account_linked", "email_changed"].includes(type);
}

const NEW_WAYS_IN: Record<string, { kind: NewWayIn["kind"]; manage: string }> = {
  password_set: { kind: "password", manage: "/account/security" },
  passkey_added: { kind: "passkey", manage: "/account/passkeys" },
  account_linked: { kind: "linked", manage: "/account/linked-accounts" },
  application_authorized: { kind: "application", manage: "/account/applications" },
};

/** What the notice of a new way in names: a provider's or an application's configured name, nothing a user typed. */
function newWayInOf(kind: NewWayIn["kind"], details: SecurityEventDetails): NewWayIn {
  if (kind === "linked") return { kind, provider: String(details.providerName ?? details.provider ?? "another") };
  if (kind === "application") return { kind, application: String(details.application ?? "An application") };
  return { kind };
}

/** How the sign-in was made, as the mail says it in the owner's language (the provider's configured name). */
function signInHow(details: SecurityEventDetails): SignInHow {
  const provider = typeof details.providerName === "string" ? details.providerName : typeof details.provider === "string" ? details.provider : undefined;
  return { method: typeof details.method === "string" ? details.method : undefined, provider };
}

async function mailOwner(event: StoredEvent, details: SecurityEventDetails, ownerEmail: string | undefined): Promise<void> {
  const activityUrl = absoluteUrl(ACTIVITY_PAGE);
  if (event.type === "email_changed") {
    // To the address the account had (the new one may be the intruder's), when it was the owner's proven inbox.
    if (details.fromVerified === true && typeof details.from === "string" && typeof details.to === "string") {
      // In the account's language: the old address belongs to no account any more.
      const owner = await db.user.findUnique({ where: { id: event.userId }, select: { locale: true } });
      await sendMail(emails.securityMailEmailChanged(details.from, details.to, event.createdAt, activityUrl, owner ?? undefined), { securityNotice: true });
    }
    return;
  }
  if (event.type === "sign_in") {
    const key = `new-device-mail|${event.userId}|${event.device}|${event.ipAddress}`;
    if (!(await takeFromQuota(key, NEW_DEVICE_MAIL_RULE)).allowed) return;
  }
  // The address the event's writer read under the row's lock, else as it is now (none: deleted a moment later).
  const user = ownerEmail ? { email: ownerEmail } : await db.user.findUnique({ where: { id: event.userId }, select: { email: true } });
  if (!user) return;
  if (event.type === "account_locked") {
    const lock = { scope: details.scope === "device" ? ("device" as const) : ("new_devices" as const), until: new Date(String(details.until)) };
    await sendMail(emails.accountLocked(user.email, lock, activityUrl), { securityNotice: true });
    return;
  }
  const newWay = NEW_WAYS_IN[event.type];
  const message =
    event.type === "sign_in"
      ? emails.securityMailNewDevice(
          user.email,
          { at: event.createdAt, device: event.device ?? "Unknown device", how: signInHow(details), ipAddress: event.ipAddress },
          activityUrl,
          absoluteUrl(PAGES.forgotPassword),
        )
      : newWay
        ? emails.newWayIn(
            user.email,
            newWayInOf(newWay.kind, details),
            event.createdAt,
            absoluteUrl(newWay.manage),
            activityUrl,
          )
        : event.type === "password_reset"
          ? emails.passwordWasReset(user.email, event.createdAt, activityUrl, details.signedOutEverywhere === true || Number(details.sessionsEnded ?? 0) > 0)
          : emails.securityMailChange(user.email, event.type as "password_changed" | "two_factor_disabled", event.createdAt, activityUrl);
  await sendMail(message, { securityNotice: true });
}
