// Every message the product sends about an account, as drafts: sendMail finds the recipient's language and each
// draft's `write` words it there (the `mail.*` keys of the catalogs, operators' overrides included).
import { type MailDraft, withKinds } from "~/email/mailer.server";
import { actionMail, codeMail, describeMoment, escapeHtml, isolated, joined, listOf, ltr, name, say } from "~/email/layout.server";
import type { Translator } from "~/i18n/format";
import { isBuiltInRole, roleName } from "~/auth/organization/role-names";

export { describeLifetime, describeMoment, PRODUCT_NAME, quotedName } from "~/email/layout.server";

/** A new way into an account, for the owner's notice. `provider` is a configured provider's display name. */
export type NewWayIn =
  | { kind: "passkey" }
  | { kind: "password" }
  | { kind: "linked"; provider: string }
  /** `application`: an OpenID client's name as an admin registered it. */
  | { kind: "application"; application: string };

/** Security changes mailed to the owner that are not new ways in (ADR 048). */
export type SecurityChange = "password_changed" | "password_reset" | "two_factor_disabled";

/** How a sign-in was made, as the event stores it: `method` (password, passkey…) and a provider's name for social. */
export interface SignInHow {
  method?: string;
  provider?: string;
}

/** The built-in roles are said in the reader's language; a custom role is a name someone wrote. */
function rolesOf(t: Translator, role: string) {
  const roles = role.split(",").map((r) => r.trim()).filter(Boolean);
  const builtIn = (r: string) => {
    const words = roleName(t.t, r);
    return { text: words, html: escapeHtml(words) };
  };
  return listOf(t, roles.map((r) => (isBuiltInRole(r) ? builtIn(r) : name(r))));
}

const draft = (to: string, write: MailDraft["write"]): MailDraft => ({ to, write });

export const emails = withKinds({
  verifyEmail: (to: string, url: string, lifetimeSeconds: number) =>
    draft(to, (t) =>
      actionMail(t, {
        subject: t.t("mail.verifyEmail.subject"),
        intro: say(t, "mail.verifyEmail.intro", { email: ltr(to) }),
        action: t.t("mail.verifyEmail.action"),
        url,
        lifetimeSeconds,
        outro: say(t, "mail.common.ignore"),
      }),
    ),
  resetPassword: (to: string, url: string, lifetimeSeconds: number) =>
    draft(to, (t) =>
      actionMail(t, {
        subject: t.t("mail.resetPassword.subject"),
        intro: say(t, "mail.resetPassword.intro"),
        action: t.t("mail.resetPassword.action"),
        url,
        lifetimeSeconds,
        outro: say(t, "mail.common.ignore"),
      }),
    ),
  /**
   * After "This wasn't me" (issue 41): its own mail, not the reset request's. The person told us they are under
   * attack: everything was signed out, and the old password still works until they choose a new one.
   */
  signedOutEverywhere: (to: string, url: string, lifetimeSeconds: number, done: { at: Date; emailChangeRefused?: string }) =>
    draft(to, (t) =>
      actionMail(t, {
        subject: t.t("mail.signedOutEverywhere.subject"),
        intro: joined(whatWasChosen(t, done), say(t, "mail.signedOutEverywhere.rest")),
        action: t.t("mail.common.chooseNewPassword"),
        url,
        lifetimeSeconds,
        outro: say(t, "mail.signedOutEverywhere.outro"),
        givesTime: true,
      }),
    ),
  /** "This wasn't me" on an account without a password: what ended, and the ways in to check. */
  signedOutEverywhereWithoutPassword: (to: string, signInUrl: string, done: { at: Date; emailChangeRefused?: string }) =>
    draft(to, (t) =>
      actionMail(t, {
        subject: t.t("mail.signedOutWithoutPassword.subject"),
        intro: joined(whatWasChosen(t, done), say(t, "mail.signedOutWithoutPassword.rest")),
        action: t.t("mail.common.signIn"),
        url: signInUrl,
        outro: say(t, "mail.signedOutWithoutPassword.outro"),
        givesTime: true,
      }),
    ),
  /** Once per lock of an account's password bucket (issue 39 §1, ADR 057). */
  accountLocked: (to: string, lock: { scope: "new_devices" | "device"; until: Date }, activityUrl: string) =>
    draft(to, (t) =>
      actionMail(t, {
        subject: t.t("mail.accountLocked.subject"),
        intro: say(t, "mail.accountLocked.intro", { scope: lock.scope, until: describeMoment(t, lock.until) }),
        action: t.t("mail.common.reviewActivity"),
        url: activityUrl,
        outro: say(t, "mail.accountLocked.outro"),
        givesTime: true,
      }),
    ),
  /** After a reset (by link or by code): when, what ended with it, and what to do if it was not the owner. */
  passwordWasReset: (to: string, at: Date, activityUrl: string, sessionsEnded: boolean) =>
    draft(to, (t) =>
      actionMail(t, {
        subject: t.t("mail.securityChange.subject", { change: "password_reset" }),
        intro: say(t, "mail.passwordWasReset.intro", { signedOut: sessionsEnded ? "yes" : "no", moment: describeMoment(t, at) }),
        action: t.t("mail.common.reviewActivity"),
        url: activityUrl,
        outro: say(t, "mail.passwordWasReset.outro"),
        givesTime: true,
      }),
    ),
  confirmEmailChange: (to: string, newEmail: string, url: string, lifetimeSeconds: number) =>
    draft(to, (t) =>
      actionMail(t, {
        subject: t.t("mail.confirmEmailChange.subject"),
        intro: say(t, "mail.confirmEmailChange.intro", { email: ltr(to), newEmail: ltr(newEmail) }),
        action: t.t("mail.confirmEmailChange.action"),
        url,
        lifetimeSeconds,
        outro: say(t, "mail.common.ignoreAndChangePassword"),
      }),
    ),
  /** Sent instead of a verification link when someone signs up with an address that already has an account. */
  signUpAttempt: (to: string, signInUrl: string) =>
    draft(to, (t) =>
      actionMail(t, {
        subject: t.t("mail.signUpAttempt.subject"),
        intro: say(t, "mail.signUpAttempt.intro", { email: ltr(to) }),
        action: t.t("mail.common.signIn"),
        url: signInUrl,
        outro: say(t, "mail.signUpAttempt.outro"),
      }),
    ),
  confirmAccountDeletion: (to: string, url: string, lifetimeSeconds: number) =>
    draft(to, (t) =>
      actionMail(t, {
        subject: t.t("mail.confirmAccountDeletion.subject"),
        intro: say(t, "mail.confirmAccountDeletion.intro"),
        action: t.t("mail.confirmAccountDeletion.action"),
        url,
        lifetimeSeconds,
        outro: say(t, "mail.common.ignoreAndChangePassword"),
      }),
    ),
  /**
   * The organization's and the inviter's names are written by users and mailed to any address: they stay out of
   * the subject, and the body quotes them as names (issue 24, item 9). Its language is the invitee's, never the
   * inviter's: an address without an account reads the operator's default.
   */
  invitation: (to: string, organizationName: string, inviter: string, role: string, url: string, lifetimeSeconds: number, teamNames: string[] = []) =>
    draft(to, (t) =>
      actionMail(t, {
        subject: t.t("mail.invitation.subject"),
        intro: say(t, "mail.invitation.intro", {
          inviter: name(inviter),
          organization: name(organizationName),
          role: rolesOf(t, role),
          teamCount: teamNames.length,
          teams: listOf(t, teamNames.map(name)),
        }),
        action: t.t("mail.invitation.action"),
        url,
        lifetimeSeconds,
        outro: say(t, "mail.invitation.outro"),
      }),
    ),
  /**
   * A new way into the account was added (ADR 030): what, when, and what to do if it was not the owner. The
   * subject and the text name no user-written text, only what this service chose (a provider's configured name).
   */
  newWayIn: (to: string, what: NewWayIn, at: Date, manageUrl: string, activityUrl?: string) =>
    draft(to, (t) =>
      actionMail(t, {
        subject: t.t("mail.newWayIn.subject", { kind: what.kind }),
        intro: say(t, "mail.newWayIn.intro", {
          kind: what.kind,
          moment: describeMoment(t, at),
          provider: isolated(what.kind === "linked" ? what.provider : ""),
          application: isolated(what.kind === "application" ? what.application : ""),
        }),
        action: t.t("mail.newWayIn.action"),
        url: manageUrl,
        outro: say(t, "mail.newWayIn.outro", { kind: what.kind }),
        activityUrl,
        givesTime: true,
      }),
    ),
  /**
   * A sign-in from a browser that had not signed in to the account before (ADR 039, ADR 048): when, the device
   * in words, how, and from which IP address. The device is this service's reading of the User-Agent.
   */
  securityMailNewDevice: (to: string, sign: { at: Date; device: string; how: SignInHow; ipAddress: string | null }, activityUrl: string, resetUrl: string) =>
    draft(to, (t) =>
      actionMail(t, {
        subject: t.t("mail.newDevice.subject"),
        intro: say(t, "mail.newDevice.intro", {
          method: say(t, "mail.signInMethod", { method: sign.how.method ?? "", provider: isolated(sign.how.provider ?? "") }),
          device: deviceOf(t, sign),
          moment: describeMoment(t, sign.at),
        }),
        action: t.t("mail.common.reviewActivity"),
        url: activityUrl,
        outro: say(t, "mail.newDevice.outro"),
        resetUrl,
        givesTime: true,
      }),
    ),
  /** A change to how the account is protected (password, two-factor): one sentence, and what to do if it was not them. */
  securityMailChange: (to: string, change: SecurityChange, at: Date, activityUrl: string) =>
    draft(to, (t) =>
      actionMail(t, {
        subject: t.t("mail.securityChange.subject", { change }),
        intro: say(t, "mail.securityChange.intro", { change, moment: describeMoment(t, at) }),
        action: t.t("mail.common.reviewActivity"),
        url: activityUrl,
        outro: say(t, "mail.securityChange.outro", { change }),
        givesTime: true,
      }),
    ),
  /**
   * The account's address was changed: sent to the OLD address, naming the new one in full, since the old inbox
   * is where the owner still reads mail if someone else made the change. `owner`: the account, whose language it is.
   */
  securityMailEmailChanged: (oldEmail: string, newEmail: string, at: Date, activityUrl: string, owner?: { locale: string | null }) => ({
    ...draft(oldEmail, (t) =>
      actionMail(t, {
        subject: t.t("mail.emailChanged.subject"),
        intro: say(t, "mail.emailChanged.intro", { from: ltr(oldEmail), to: ltr(newEmail), moment: describeMoment(t, at) }),
        action: t.t("mail.common.reviewActivity"),
        url: activityUrl,
        outro: say(t, "mail.emailChanged.outro", { from: ltr(oldEmail) }),
        givesTime: true,
      }),
    ),
    recipient: owner,
  }),
  twoFactorCode: (to: string, code: string, lifetimeSeconds: number) =>
    draft(to, (t) =>
      codeMail(t, {
        subject: t.t("mail.twoFactorCode.subject"),
        intro: say(t, "mail.twoFactorCode.intro"),
        code,
        lifetimeSeconds,
        outro: say(t, "mail.twoFactorCode.outro"),
      }),
    ),
  /** Step-up (issue 39 §4, ADR 059): a signed-in person asked to confirm it's them with a code by e-mail. */
  reverifyCode: (to: string, code: string, lifetimeSeconds: number) =>
    draft(to, (t) =>
      codeMail(t, {
        subject: t.t("mail.reverifyCode.subject"),
        intro: say(t, "mail.reverifyCode.intro"),
        code,
        lifetimeSeconds,
        outro: say(t, "mail.reverifyCode.outro"),
      }),
    ),
  /** A right password from a browser new to the account (issue 39 §3, ADR 058): the code that confirms it. */
  newDeviceCode: (to: string, code: string, lifetimeSeconds: number, sign: { at: Date; device: string; ipAddress: string | null }) =>
    draft(to, (t) =>
      codeMail(t, {
        subject: t.t("mail.newDeviceCode.subject"),
        intro: say(t, "mail.newDeviceCode.intro", { device: deviceOf(t, sign), moment: describeMoment(t, sign.at) }),
        code,
        lifetimeSeconds,
        outro: say(t, "mail.newDeviceCode.outro"),
        givesTime: true,
      }),
    ),
  emailOtp: (to: string, code: string, type: "sign-in" | "email-verification" | "forget-password", lifetimeSeconds: number) =>
    draft(to, (t) =>
      codeMail(t, {
        subject: t.t("mail.emailOtp.subject", { type: type.replace("-", "_") }),
        intro: say(t, "mail.emailOtp.intro", { type: type.replace("-", "_"), email: ltr(to) }),
        code,
        lifetimeSeconds,
        outro: say(t, "mail.common.ignore"),
      }),
    ),
});

/** "You chose “This wasn't me”…" or, when it refused an e-mail change, which one, and when. */
function whatWasChosen(t: Translator, done: { at: Date; emailChangeRefused?: string }) {
  const moment = describeMoment(t, done.at);
  return done.emailChangeRefused
    ? say(t, "mail.signedOut.cancelledChange", { email: ltr(done.emailChangeRefused), moment })
    : say(t, "mail.signedOut.chose", { moment });
}

/** "Chrome unter Linux, IP-Adresse 203.0.113.9": the device composed in the reader's language. */
function deviceOf(t: Translator, sign: { device: string; ipAddress: string | null }) {
  const device = t.device(sign.device);
  return sign.ipAddress ? say(t, "mail.common.deviceWithIp", { device, ip: ltr(sign.ipAddress) }) : { text: device, html: escapeHtml(device) };
}
