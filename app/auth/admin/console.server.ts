// What the console's user page shows about an account (issue 30): its sign-in methods, organizations and recent
// security events, read here over the tables (the event log's own module is issue 29's; this is a small,
// read-only view of it) and the events' types put in words for people.
import type { SecurityEventType } from "~/auth/security-events/types";
import { CREDENTIAL_PROVIDER } from "~/auth/account/password.server";
import { db } from "~/db.server";

/** Events the page shows: the newest, enough to see what happened lately. */
const RECENT_EVENTS = 25;

const EVENT_WORDS: Record<SecurityEventType, string> = {
  sign_in: "Signed in",
  sign_in_failed: "Failed sign-in",
  sign_out: "Signed out",
  session_revoked: "Session ended",
  password_changed: "Password changed",
  password_reset: "Password reset by email",
  password_set: "Password set",
  email_changed: "Email address changed",
  email_verified: "Email address verified",
  two_factor_enabled: "Two-factor turned on",
  two_factor_disabled: "Two-factor turned off",
  backup_codes_generated: "New backup codes",
  passkey_added: "Passkey added",
  passkey_removed: "Passkey removed",
  account_linked: "Account linked",
  account_unlinked: "Account unlinked",
  sessions_ended_by_owner: "Other sessions signed out",
  user_banned: "Banned",
  user_unbanned: "Ban lifted",
  role_changed: "Role changed",
  impersonation_started: "An admin started acting as this account",
  impersonation_stopped: "An admin stopped acting as this account",
  profile_updated_by_admin: "Profile changed by an admin",
  user_created_by_admin: "Account created by an admin",
};

export function eventInWords(type: string): string {
  return Object.hasOwn(EVENT_WORDS, type) ? EVENT_WORDS[type as SecurityEventType] : type.replaceAll("_", " ");
}

export async function recentSecurityEvents(userId: string) {
  const events = await db.securityEvent.findMany({ where: { userId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: RECENT_EVENTS });
  const actorIds = [...new Set(events.map((e) => e.actorUserId).filter((id): id is string => id !== null && id !== userId))];
  const actors = new Map((await db.user.findMany({ where: { id: { in: actorIds } }, select: { id: true, email: true } })).map((a) => [a.id, a.email]));
  return events.map((event) => ({
    id: event.id,
    what: eventInWords(event.type),
    at: event.createdAt,
    device: event.device,
    ipAddress: event.ipAddress,
    by: event.actorUserId && event.actorUserId !== userId ? (actors.get(event.actorUserId) ?? "a deleted admin") : null,
  }));
}

/** How the account can sign in, and where it belongs. */
export async function accountOverview(userId: string) {
  const [accounts, passkeys, twoFactor, memberships] = await Promise.all([
    db.account.findMany({ where: { userId }, select: { providerId: true, password: true } }),
    db.passkey.count({ where: { userId } }),
    db.twoFactor.findUnique({ where: { userId }, select: { id: true } }),
    db.member.findMany({ where: { userId }, select: { role: true, organization: { select: { name: true, slug: true } } }, orderBy: { createdAt: "asc" } }),
  ]);
  return {
    hasPassword: accounts.some((a) => a.providerId === CREDENTIAL_PROVIDER && a.password !== null),
    providers: accounts.filter((a) => a.providerId !== CREDENTIAL_PROVIDER).map((a) => a.providerId),
    passkeys,
    twoFactorSetUp: twoFactor !== null,
    organizations: memberships.map((m) => ({ name: m.organization.name, slug: m.organization.slug, role: m.role })),
  };
}
