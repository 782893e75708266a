// Security events as catalog sentences (issue 44): which message says what happened and with what values, worked
// out from the stored event alone (no I/O), then said in the reader's language where it is shown — the activity
// page, the admin console, the mails. The API's event types and details never change; only their words do.
import { ADMINISTRATION_EVENT_TYPES, type SecurityEventDetails } from "~/auth/security-events/types";
import type { Translator, Values } from "~/i18n/format";
import { roleName } from "~/auth/organization/role-names";

/** A value of a sentence: plain text or a number, a moment, a list of API values, a list of roles, or a message. */
export type SentenceValue = string | number | { at: string } | { list: string[] } | { roles: string[] } | { key: string };

export interface Sentence {
  key: string;
  values: Record<string, SentenceValue>;
  /** The sentence itself says an administrator did it ("Account suspended by an administrator"). */
  namesAdministrator: boolean;
}

/**
 * Who reads the sentence: the account's owner (the activity page, the mails: "acting as you") or an admin
 * looking at the account in the console ("acting as this account"). Only sentences that address the owner differ.
 */
export type EventReader = "owner" | "admin";


const KEYS: Record<string, string> = {
  sign_in: "event.signIn",
  sign_in_failed: "event.signInFailed",
  sign_in_challenged: "event.signInChallenged",
  sign_in_blocked: "event.signInBlocked",
  account_locked: "event.accountLocked",
  sign_out: "event.signOut",
  session_revoked: "event.sessionRevoked",
  reverified: "event.reverified",
  reverify_failed: "event.reverifyFailed",
  sensitive_action_refused: "event.sensitiveActionRefused",
  password_changed: "event.passwordChanged",
  password_reset: "event.passwordReset",
  password_set: "event.passwordSet",
  password_rejected: "event.passwordRejected",
  email_changed: "event.emailChanged",
  email_verified: "event.emailVerified",
  two_factor_enabled: "event.twoFactorEnabled",
  two_factor_disabled: "event.twoFactorDisabled",
  backup_codes_generated: "event.backupCodesGenerated",
  passkey_added: "event.passkeyAdded",
  passkey_removed: "event.passkeyRemoved",
  account_linked: "event.accountLinked",
  account_unlinked: "event.accountUnlinked",
  sessions_ended_by_owner: "event.sessionsEndedByOwner",
  user_banned: "event.userBanned",
  user_unbanned: "event.userUnbanned",
  role_changed: "event.roleChanged",
  impersonation_started: "event.impersonationStarted",
  impersonation_stopped: "event.impersonationStopped",
  profile_updated_by_admin: "event.profileUpdatedByAdmin",
  user_created_by_admin: "event.userCreatedByAdmin",
  password_reset_sent_by_admin: "event.passwordResetSentByAdmin",
  application_authorized: "event.applicationAuthorized",
  application_revoked: "event.applicationRevoked",
  application_tokens_issued: "event.applicationTokensIssued",
  team_created: "event.teamCreated",
  team_updated: "event.teamUpdated",
  team_removed: "event.teamRemoved",
  team_member_added: "event.teamMemberAdded",
  team_member_removed: "event.teamMemberRemoved",
  organization_role_created: "event.organizationRoleCreated",
  organization_role_updated: "event.organizationRoleUpdated",
  organization_role_deleted: "event.organizationRoleDeleted",
  organization_member_role_changed: "event.organizationMemberRoleChanged",
  sso_connection_added: "event.ssoConnectionAdded",
  sso_connection_removed: "event.ssoConnectionRemoved",
  sso_domain_verified: "event.ssoDomainVerified",
};

/** Whether `type` has a sentence of its own (else "Account changed"). */
export const hasSentence = (type: string) => Object.hasOwn(KEYS, type);

/** What a step-up refusal stopped, from the API path it stores, as the sentence's select names it. */
const SENSITIVE_ACTIONS: Record<string, string> = {
  "/change-email": "changeEmail",
  "/two-factor/enable": "twoFactorOn",
  "/two-factor/disable": "twoFactorOff",
  "/two-factor/get-totp-uri": "totpKey",
  "/two-factor/generate-backup-codes": "backupCodes",
  "/two-factor/set-otp": "otpByEmail",
  "/revoke-other-sessions": "otherDevices",
  "/revoke-session": "otherDevice",
  "/delete-user": "deleteAccount",
  "/set-password": "setPassword",
  "/link-social": "linkAccount",
  "/passkey/generate-register-options": "addPasskey",
  "/passkey/verify-registration": "addPasskey",
};

const text = (value: unknown): string | null => (typeof value === "string" && value ? value : null);
const yes = (value: unknown) => (value === true ? "yes" : "no");
/** A name as the event stored it (it may be renamed or gone since), or a word for "one" when it is missing. */
const named = (value: unknown, fallback: string): SentenceValue => text(value) ?? { key: fallback };
const permissions = (value: unknown) =>
  typeof value !== "string" ? { permissions: "unknown", permissionList: "" } : { permissions: value === "" ? "none" : "some", permissionList: { list: value.split(",") } };
const methodOf = (details: SecurityEventDetails) => {
  if (details.method !== "social") return { method: text(details.method) ?? "unknown", provider: "" };
  const provider = text(details.providerName) ?? text(details.provider);
  return provider ? { method: "social", provider } : { method: "socialUnknown", provider: "" };
};

/** The values each event's sentence takes, from its stored details. */
function valuesOf(type: string, d: SecurityEventDetails, reader: EventReader): Record<string, SentenceValue> {
  const organization = { organization: named(d.organizationName, "event.someOrganization") };
  const team = { ...organization, team: named(d.teamName, "event.someTeam") };
  switch (type) {
    case "sign_in":
      return { signUp: yes(d.signUp), ...methodOf(d) };
    case "sign_in_failed":
      return { method: text(d.method) ?? "password" };
    case "sign_in_blocked":
      return { reason: text(d.reason) ?? "locked" };
    case "account_locked":
      return { scope: d.scope === "device" ? "device" : "newDevices", ...(typeof d.until === "string" ? { until: { at: d.until } } : {}) };
    case "session_revoked":
      return { which: d.all ? "all" : d.others ? "others" : "one" };
    case "reverified":
    case "reverify_failed":
      return { reader, method: text(d.method) ?? "unknown" };
    case "sensitive_action_refused": {
      const action = text(d.action);
      return { reader, action: action === null ? "other" : (SENSITIVE_ACTIONS[action] ?? (action.startsWith("/admin/") ? "admin" : "other")) };
    }
    case "password_rejected":
      return { flow: text(d.flow) ?? "other" };
    case "email_changed":
      return { from: text(d.from) ?? "", to: text(d.to) ?? "", known: text(d.from) && text(d.to) ? "yes" : "no" };
    case "email_verified":
      return { email: text(d.email) ?? "", known: text(d.email) ? "yes" : "no" };
    case "passkey_added":
    case "passkey_removed":
      return { name: text(d.name) ?? "", named: text(d.name) ? "yes" : "no" };
    case "account_linked":
    case "account_unlinked": {
      const provider = text(d.providerName) ?? text(d.provider);
      return { provider: provider ?? "", known: provider ? "yes" : "no" };
    }
    case "impersonation_started":
    case "impersonation_stopped":
      return { reader };
    case "profile_updated_by_admin":
      return { from: text(d.from) ?? "", to: text(d.to) ?? "", change: text(d.to) ? (text(d.from) ? "email" : "emailTo") : "profile" };
    case "application_authorized":
      return { application: named(d.application, "event.someApplication"), trusted: yes(d.trusted) };
    case "application_revoked":
      return { application: named(d.application, "event.someApplication"), removed: yes(d.applicationRemoved) };
    case "application_tokens_issued":
      return { application: named(d.application, "event.someApplication") };
    case "team_created":
    case "team_updated":
    case "team_removed":
      return team;
    case "team_member_added":
    case "team_member_removed":
      return { ...team, byOther: yes(d.byOther) };
    case "organization_role_created":
    case "organization_role_deleted":
      return { ...organization, role: named(d.role, "event.someRole"), ...permissions(d.permissions) };
    case "organization_role_updated": {
      const renamed = typeof d.from === "string" && d.from !== d.role;
      return { ...organization, role: named(d.role, "event.someRole"), from: text(d.from) ?? "", renamed: renamed ? "yes" : "no", ...permissions(d.permissions) };
    }
    case "organization_member_role_changed": {
      const roles = (value: unknown): SentenceValue => (text(value) ? { roles: text(value)!.split(",") } : { key: "event.noRole" });
      return { ...organization, from: roles(d.from), to: roles(d.to), byOther: yes(d.byOther) };
    }
    case "sso_connection_added":
    case "sso_connection_removed":
    case "sso_domain_verified":
      return {
        ...organization,
        connection: named(d.providerId, "event.someConnection"),
        protocol: d.protocol === "saml" ? "SAML" : "OpenID Connect",
        domain: named(d.domain, "event.itsDomain"),
      };
    default:
      return {};
  }
}

/** Sentences that say "by an administrator" themselves: the activity page does not say it again beside them. */
const NAMES_ADMINISTRATOR: ReadonlySet<string> = new Set(ADMINISTRATION_EVENT_TYPES);

/** The sentence for an event: "Signed in with a passkey", "Wrong password entered", "Passkey “Laptop” removed". */
export function eventSentence(type: string, details: SecurityEventDetails, reader: EventReader = "owner"): Sentence {
  const values = valuesOf(type, details, reader);
  const namesAdministrator =
    NAMES_ADMINISTRATOR.has(type) || (type === "password_rejected" && values.flow === "admin") || (type === "sensitive_action_refused" && values.action === "admin");
  // A lock that says until when has its own message (the moment said in the reader's language).
  if (type === "account_locked" && "until" in values) return { key: "event.accountLockedUntil", values, namesAdministrator };
  return { key: KEYS[type] ?? "event.other", values, namesAdministrator };
}

/** The sentence's values in the reader's language: moments, lists and role names composed by the translator. */
export function sentenceValues(t: Translator, sentence: Sentence): Values {
  const values: Values = {};
  for (const [name, value] of Object.entries(sentence.values)) {
    if (typeof value !== "object") values[name] = value;
    else if ("at" in value) values[name] = t.dateTime(new Date(value.at));
    else if ("list" in value) values[name] = t.list(value.list, "unit");
    else if ("roles" in value) values[name] = t.list(value.roles.map((role) => roleName(t.t, role)), "unit");
    else values[name] = t.t(value.key);
  }
  return values;
}

/** Rich text as plain text: a tag's chunks kept, the tag itself dropped (a hidden label, a mail's text part). */
const PLAIN_TAGS = { bdi: (chunks: unknown[]) => chunks.join(""), ltr: (chunks: unknown[]) => chunks.join("") };

/** The sentence as plain text in the reader's language (the row a "Not you?" link names, a mail). */
export function sentenceText(t: Translator, sentence: Sentence): string {
  return t.rich(sentence.key, sentenceValues(t, sentence), PLAIN_TAGS).join("");
}
