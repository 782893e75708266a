// The owner's mail after an administrator's act (issue 41, ADR 065): an event whose actor is someone else — the
// console, the admin API, or an admin acting as the person (ADR 050) — is mailed in words that name the actor,
// never the owner's own "If this was not you…". Which acts are mailed is decided here; the words are
// app/email/admin-notices.server.ts.
import { isAdminRole } from "~/auth/admin/permissions";
import { absoluteUrl, PAGES } from "~/auth/core/links.server";
import type { SecurityEventDetails } from "~/auth/security-events/types";
import { db } from "~/db.server";
import { adminNotices, type AdminAct } from "~/email/admin-notices.server";
import { sendMail } from "~/email/mailer.server";
import { env } from "~/env.server";

interface ActedEvent {
  userId: string;
  type: string;
  createdAt: Date;
  actorUserId: string | null;
}

/** Made by someone other than the account's owner: an administrator (the only other actor there is). */
export const isAdminAct = (event: ActedEvent): boolean => event.actorUserId !== null && event.actorUserId !== event.userId;

/**
 * The act as the owner's mail words it, or null when the owner is not mailed: the reset link sent by an admin
 * (its own mail names the admin), an account an admin created, an impersonation's start and end (the activity
 * page shows them), a change of name or picture. `ownerMailed`: whether the same event made by the owner would
 * be mailed (then an admin acting as the person is named, whatever the event).
 */
export function adminActOf(type: string, details: SecurityEventDetails, ownerMailed: boolean): AdminAct | null {
  switch (type) {
    case "password_set":
      return { kind: "password_set" };
    case "session_revoked":
      return { kind: "signed_out", scope: details.others ? "others" : details.all || typeof details.sessions === "number" ? "all" : "one" };
    case "user_banned":
      return { kind: "banned", until: typeof details.until === "string" ? new Date(details.until) : null };
    case "user_unbanned":
      return { kind: "unbanned" };
    case "role_changed": {
      const nowAdmin = isAdminRole(String(details.to ?? ""));
      return nowAdmin === isAdminRole(String(details.from ?? "")) ? null : { kind: "role_changed", nowAdmin };
    }
    case "profile_updated_by_admin":
      // To the old address when it was the owner's proven inbox, as the owner's own change of address (ADR 048).
      return details.fromVerified === true && typeof details.from === "string" && typeof details.to === "string"
        ? { kind: "email_changed", from: details.from, to: details.to }
        : null;
    default:
      return ownerMailed ? { kind: "other", event: type } : null;
  }
}

/** The site as its people know it, and as nobody can word it for us: BASE_URL's host. */
export const siteName = (): string => new URL(env.BASE_URL).host;

export async function mailAdminAct(event: ActedEvent, act: AdminAct): Promise<void> {
  const user = await db.user.findUnique({ where: { id: event.userId }, select: { email: true, locale: true } });
  if (!user) return; // removed a moment later
  const to = act.kind === "email_changed" ? act.from : user.email;
  const links = { activityUrl: absoluteUrl(PAGES.activity), resetUrl: absoluteUrl(PAGES.forgotPassword), signInUrl: absoluteUrl(PAGES.signIn) };
  // The owner's language, never the administrator's: also when it goes to the address the account had.
  await sendMail(adminNotices.act(to, siteName(), act, event.createdAt, links, user), { securityNotice: true });
}
