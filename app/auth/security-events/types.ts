// The kinds of security event (issue 29; docs/decisions/048-security-events.md). The strings are the wire format:
// the API, the pages and the tests use them as they are.
/** Administration (issue 30): what an admin did to the account; the event's actor is the admin. */
export const ADMINISTRATION_EVENT_TYPES = [
  "user_banned",
  "user_unbanned",
  "role_changed",
  "impersonation_started",
  "impersonation_stopped",
  "profile_updated_by_admin",
  "user_created_by_admin",
  "password_reset_sent_by_admin",
] as const;

export const SECURITY_EVENT_TYPES = [
  "sign_in",
  "sign_in_failed",
  // Wrong passwords per account (issue 39 §1, ADR 057): an attempt refused uncompared, details {reason: "locked",
  // method, knownDevice} (or reason "challenge": proof of work asked and not solved, ADR 060); and once per lock,
  // {scope: "new_devices" | "device", until} (mails the owner).
  "sign_in_blocked",
  "account_locked",
  // A right password that started no session yet: details {reason: "new_device"} (issue 39 §3, ADR 058).
  "sign_in_challenged",
  "sign_out",
  "session_revoked",
  // Step-up (issue 39 §4, ADR 059): a session confirmed it's its user ({method}), failed to ({method}), or was refused
  // a sensitive change for not having done so recently ({action: the API path, reason: "not_recently_verified"}).
  "reverified",
  "reverify_failed",
  "sensitive_action_refused",
  "password_changed",
  "password_reset",
  "password_set",
  // A new password refused as breached or common (issue 39 §2): details {reason: "compromised", flow}. Nothing changed.
  "password_rejected",
  "email_changed",
  "email_verified",
  "two_factor_enabled",
  "two_factor_disabled",
  "backup_codes_generated",
  "passkey_added",
  "passkey_removed",
  "account_linked",
  "account_unlinked",
  "sessions_ended_by_owner",
  ...ADMINISTRATION_EVENT_TYPES,
  // The OpenID provider (issue 31): applications the person let sign them in, and what they were given.
  "application_authorized",
  "application_revoked",
  "application_tokens_issued",
  // Teams inside organizations (issue 42, ADR 068): {organizationId, organizationName, teamId, teamName}. The team's
  // own changes are on the actor's account; being added or removed, on the affected person's, the actor recorded.
  "team_created",
  "team_updated",
  "team_removed",
  "team_member_added",
  "team_member_removed",
  // An organization's own roles (issue 42, ADR 069): on the actor's account, {organizationId, organizationName, role,
  // permissions: "team:create,team:update"} (an update adds `from` when it renamed the role).
  "organization_role_created",
  "organization_role_updated",
  "organization_role_deleted",
  // On the affected person's account, the actor recorded: {organizationId, organizationName, from, to, byOther}.
  "organization_member_role_changed",
  // An organization's single sign-on connections (issue 43, ADR 070), on the actor's account: {organizationId,
  // organizationName, providerId, protocol: "oidc" | "saml", domain}. Never a secret of the connection.
  "sso_connection_added",
  "sso_connection_removed",
  "sso_domain_verified",
] as const;

/**
 * Events another member of an organization may make on someone's account: their actor is a fellow member, not an
 * administrator, so the activity page does not say "by an administrator" (ADR 068).
 */
export const ORGANIZATION_ACT_TYPES: ReadonlySet<string> = new Set(["team_member_added", "team_member_removed", "organization_member_role_changed"]);

export type SecurityEventType = (typeof SECURITY_EVENT_TYPES)[number];

/** A flat object of plain values: what a person or an operator needs to read the event, never a secret. */
export type SecurityEventDetails = Record<string, string | number | boolean | null>;
