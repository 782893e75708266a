// Security events in words for people (docs/decisions/014-words-for-people.md, 048-security-events.md): the
// activity page, the security mails and the admin console's list of an account's events read the same
// sentences. Plain functions of stored values, no I/O.
import type { SecurityEventDetails } from "~/auth/security-events/types";

/** The ways a sign-in can be made, as `details.method` stores them (issue 29's exact strings). */
export type SignInMethod = "password" | "username" | "email_otp" | "passkey" | "social" | "verification_link";

/** "with a passkey", "with Test SSO": how someone signed in, to follow "Signed in". */
export function signInMethodWords(details: SecurityEventDetails): string {
  switch (details.method) {
    case "password":
      return "with a password";
    case "username":
      return "with a username and password";
    case "email_otp":
      return "with a code sent by email";
    case "passkey":
      return "with a passkey";
    case "social":
      return `with ${typeof details.providerName === "string" ? details.providerName : typeof details.provider === "string" ? details.provider : "another account"}`;
    case "verification_link":
      return "with an email verification link";
    default:
      return "";
  }
}

const text = (value: unknown, fallback: string) => (typeof value === "string" && value ? value : fallback);

/**
 * Who reads the sentence: the account's owner (the activity page, the mails: "acting as you") or an admin
 * looking at the account in the console ("acting as this account"). Only sentences that address the owner differ.
 */
export type EventReader = "owner" | "admin";

/** `password_rejected`: which flow chose a breached or common password (issue 39 §2); nothing was changed. */
function passwordRejectedWords(details: SecurityEventDetails): string {
  const why = "it appears in lists of breached or common passwords";
  switch (details.flow) {
    case "change":
      return `New password refused (${why}); the password was not changed`;
    case "reset":
      return `Password reset refused (${why}); the password was not changed`;
    case "set":
      return `Password not set (${why})`;
    case "admin":
      return `Password chosen by an administrator refused (${why}); the password was not changed`;
    default:
      return `Password refused (${why})`;
  }
}

/** How a session confirmed it's its user (step-up, ADR 059). */
function reverifyMethodWords(method: unknown): string {
  switch (method) {
    case "password":
      return "with the password";
    case "otp":
      return "with a code sent by email";
    case "totp":
      return "with an authenticator app code";
    case "passkey":
      return "with a passkey";
    default:
      return "";
  }
}

/** What a step-up refusal stopped, from the API path it stores. */
const SENSITIVE_ACTIONS: Record<string, string> = {
  "/change-email": "Changing the email address",
  "/two-factor/enable": "Turning on two-factor authentication",
  "/two-factor/disable": "Turning off two-factor authentication",
  "/two-factor/get-totp-uri": "Showing the authenticator app's key",
  "/two-factor/generate-backup-codes": "Making new backup codes",
  "/two-factor/set-otp": "Changing two-factor codes by email",
  "/revoke-other-sessions": "Signing out the other devices",
  "/revoke-session": "Signing out another device",
  "/delete-user": "Deleting the account",
  "/set-password": "Setting a password",
  "/link-social": "Linking an account",
  "/passkey/generate-register-options": "Adding a passkey",
  "/passkey/verify-registration": "Adding a passkey",
};

function sensitiveActionWords(action: unknown): string {
  if (typeof action !== "string") return "A sensitive change";
  return SENSITIVE_ACTIONS[action] ?? (action.startsWith("/admin/") ? "An administrator's action" : "A sensitive change");
}

/** An application's name as the event stored it (names may change or the application be removed since). */
const application = (details: SecurityEventDetails) => `“${text(details.application, "an application")}”`;

/** A team and its organization as the event stored them (either may be renamed or gone since). */
const team = (details: SecurityEventDetails) => `“${text(details.teamName, "a team")}”`;
const organization = (details: SecurityEventDetails) => `“${text(details.organizationName, "an organization")}”`;
const connection = (details: SecurityEventDetails) =>
  `“${text(details.providerId, "a connection")}” (${details.protocol === "saml" ? "SAML" : "OpenID Connect"}, ${text(details.domain, "its domain")})`;

/** A role's name as the event stored it, and a member's roles ("admin,billing" → "admin, billing"). */
const role = (value: unknown) => `“${text(value, "a role")}”`;
const roleList = (value: unknown) => `“${text(value, "no role").split(",").join(", ")}”`;
/** What a role permits, from its stored "team:create,team:update". */
const permissionsWords = (value: unknown) =>
  typeof value !== "string" ? "" : value === "" ? " (no permissions)" : ` (permissions: ${value.split(",").join(", ")})`;

/** One sentence for an event: "Signed in with a passkey", "Wrong password entered", "Passkey “Laptop” removed". */
export function describeEvent(type: string, details: SecurityEventDetails, reader: EventReader = "owner"): string {
  const you = reader === "owner" ? "you" : "this account";
  switch (type) {
    case "sign_in":
      return `${details.signUp ? "Account created and signed in" : "Signed in"} ${signInMethodWords(details)}`.trim();
    case "sign_in_failed":
      return details.method === "two_factor"
        ? "Wrong two-factor code entered"
        : details.method === "new_device"
          ? "Wrong code entered to confirm a new device"
          : details.method === "email_otp"
            ? "Wrong sign-in code entered"
            : "Wrong password entered";
    case "sign_in_challenged":
      return "Right password entered from a new device; a code was emailed to confirm it";
    case "sign_in_blocked":
      // Proof of work under a burst (ADR 060): asked of a browser new to the account, not solved.
      if (details.reason === "challenge") return "Password sign-in from a new device held back: the automatic check against bots was not solved";
      return "Password sign-in refused: too many wrong passwords";
    case "account_locked":
      return `Password sign-in ${details.scope === "device" ? "from one of your devices" : "from new devices"} paused after too many wrong passwords${typeof details.until === "string" ? ` until ${details.until.replace("T", " ").slice(0, 16)} UTC` : ""}`;
    case "sign_out":
      return "Signed out";
    case "session_revoked":
      return details.all ? "Signed out on every device" : details.others ? "Signed out on the other devices" : "Signed out a session";
    case "reverified":
      return `Confirmed it's ${you === "you" ? "you" : "the account's owner"} ${reverifyMethodWords(details.method)}`;
    case "reverify_failed":
      return `Failed to confirm it's ${you === "you" ? "you" : "the account's owner"} ${reverifyMethodWords(details.method)}`;
    case "sensitive_action_refused":
      return `${sensitiveActionWords(details.action)} refused: it had not been confirmed recently that it's ${you === "you" ? "you" : "the owner"}`;
    case "password_changed":
      return "Password changed";
    case "password_reset":
      return "Password reset";
    case "password_set":
      return "Password set";
    case "password_rejected":
      return passwordRejectedWords(details);
    case "email_changed":
      return `Email address changed from ${text(details.from, "the old address")} to ${text(details.to, "a new address")}`;
    case "email_verified":
      return `Email address ${text(details.email, "")} verified`.replace("  ", " ");
    case "two_factor_enabled":
      return "Two-factor authentication turned on";
    case "two_factor_disabled":
      return "Two-factor authentication turned off";
    case "backup_codes_generated":
      return "New backup codes made";
    case "passkey_added":
      return `Passkey ${typeof details.name === "string" && details.name ? `“${details.name}” ` : ""}added`;
    case "passkey_removed":
      return `Passkey ${typeof details.name === "string" && details.name ? `“${details.name}” ` : ""}removed`;
    case "account_linked":
      return `${text(details.providerName, text(details.provider, "Another"))} account linked`;
    case "account_unlinked":
      return `${text(details.providerName, text(details.provider, "Another"))} account unlinked`;
    case "sessions_ended_by_owner":
      return "Signed out everywhere (“This wasn't me”)";
    case "user_banned":
      return "Account suspended by an administrator";
    case "user_unbanned":
      return "Account suspension lifted by an administrator";
    case "role_changed":
      return "Role changed by an administrator";
    case "impersonation_started":
      return `An administrator started acting as ${you}`;
    case "impersonation_stopped":
      return `An administrator stopped acting as ${you}`;
    case "profile_updated_by_admin":
      return typeof details.to === "string"
        ? `Email address changed from ${text(details.from, "the old address")} to ${details.to} by an administrator`
        : "Profile changed by an administrator";
    case "user_created_by_admin":
      return "Account created by an administrator";
    case "password_reset_sent_by_admin":
      return "Password reset link sent by an administrator";
    case "application_authorized":
      return `Access given to ${application(details)}${details.trusted ? " (a trusted application, which does not ask)" : ""}`;
    case "application_revoked":
      return details.applicationRemoved === true
        ? `Access for ${application(details)} ended: the application was removed from this site`
        : `Access for ${application(details)} revoked`;
    case "application_tokens_issued":
      return `Signed in to ${application(details)} for the first time`;
    case "team_created":
      return `Team ${team(details)} created in ${organization(details)}`;
    case "team_updated":
      return `Team ${team(details)} renamed in ${organization(details)}`;
    case "team_removed":
      return `Team ${team(details)} deleted from ${organization(details)}`;
    case "team_member_added":
      return `Added to team ${team(details)} in ${organization(details)}${details.byOther === true ? " by another member" : ""}`;
    case "team_member_removed":
      return `Removed from team ${team(details)} in ${organization(details)}${details.byOther === true ? " by another member" : ""}`;
    case "organization_role_created":
      return `Role ${role(details.role)} created in ${organization(details)}${permissionsWords(details.permissions)}`;
    case "organization_role_updated":
      return `Role ${typeof details.from === "string" && details.from !== details.role ? `${role(details.from)} renamed to ${role(details.role)} and` : role(details.role)} changed in ${organization(details)}${permissionsWords(details.permissions)}`;
    case "organization_role_deleted":
      return `Role ${role(details.role)} deleted from ${organization(details)}`;
    case "organization_member_role_changed":
      return `Your role in ${organization(details)} changed from ${roleList(details.from)} to ${roleList(details.to)}${details.byOther === true ? " by another member" : ""}`;
    case "sso_connection_added":
      return `Single sign-on connection ${connection(details)} added to ${organization(details)}`;
    case "sso_connection_removed":
      return `Single sign-on connection ${connection(details)} removed from ${organization(details)}`;
    case "sso_domain_verified":
      return `Domain of single sign-on connection ${connection(details)} proven for ${organization(details)}`;
    default:
      return "Account changed";
  }
}

/**
 * Where an event came from, for the owner's activity page: the browser and client address, or, for an event an
 * administrator made, only that (their address and browser are for operators, issue 38), left out when the
 * sentence says it already ("Account suspended by an administrator").
 */
export function eventOrigin(event: { byAdministrator: boolean; device: string | null; ipAddress: string | null }, sentence: string): string {
  if (event.byAdministrator) return /administrator/i.test(sentence) ? "" : "by an administrator";
  return [event.device, event.ipAddress].filter(Boolean).join(", ");
}
