// Every message the product sends: a text and an HTML part, the product's name, one clear action link
// (absolute, built from BASE_URL) and how long that link lives.
import { withKinds, type MailMessage } from "~/email/mailer.server";

export const PRODUCT_NAME = "Latchkey";

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** "1 hour", "24 hours", "10 minutes". */
export function describeLifetime(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? "1 hour" : `${seconds / 3600} hours`;
  if (seconds % 60 === 0) return seconds === 60 ? "1 minute" : `${seconds / 60} minutes`;
  return seconds === 1 ? "1 second" : `${seconds} seconds`;
}

export interface ActionMail {
  to: string;
  subject: string;
  intro: string;
  /** The button and its address; absent for a notice with nothing to press (a suspended account). */
  action?: string;
  url?: string;
  /** How long the link works; absent for a plain link to a page. */
  lifetimeSeconds?: number;
  outro: string;
  /** Security mails (ADR 048): a second link, to the account's activity page. */
  activityUrl?: string;
  /** A remedy that needs no sign-in (issue 41): the page to choose a new password from. */
  resetUrl?: string;
}

/** Said once below any mail that gives a time: the times are UTC, the same for every reader (issue 41). */
const TIMES_ARE_UTC = "Times in this message are in UTC (Coordinated Universal Time).";

export function actionMail({ to, subject, intro, action, url, lifetimeSeconds, outro, activityUrl, resetUrl }: ActionMail): MailMessage {
  const lifetime = lifetimeSeconds ? `This link expires in ${describeLifetime(lifetimeSeconds)} and works once.` : "";
  const activity = activityUrl ? `Everything that happened to your account lately: ${activityUrl}` : "";
  const reset = resetUrl ? `Cannot sign in? Choose a new password here: ${resetUrl}` : "";
  const utc = / UTC\b/.test(`${intro} ${outro}`) ? TIMES_ARE_UTC : "";
  const button = action && url ? `${action}: ${url}` : "";
  const text = [`${PRODUCT_NAME}`, "", intro, "", button, "", lifetime, outro, "", reset, activity, utc, ""].filter((line, i, all) => line || all[i - 1] !== "").join("\n");
  const small = (line: string, link?: string) =>
    `<p style="color:#62626e;font-size:.8rem">${escapeHtml(line)}${link ? ` <a href="${escapeHtml(link)}">${escapeHtml(link)}</a>` : ""}</p>\n`;
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1b1b1f">
<p style="font-weight:700">${PRODUCT_NAME}</p>
<p>${escapeHtml(intro)}</p>
${action && url ? `<p><a href="${escapeHtml(url)}" style="display:inline-block;padding:.5rem 1rem;background:#4646e6;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action)}</a></p>\n` : ""}<p style="color:#62626e;font-size:.9rem">${escapeHtml(`${lifetime} ${outro}`.trim())}</p>
${url ? small(`If the button does not work, open this address: ${url}`) : ""}${resetUrl ? small("Cannot sign in? Choose a new password here:", resetUrl) : ""}${activityUrl ? small("Everything that happened to your account lately:", activityUrl) : ""}${utc ? small(utc) : ""}</body></html>`;
  return { to, subject: `${subject} · ${PRODUCT_NAME}`, text, html };
}

/** Longest user-written name a mail quotes; longer ones are cut (names are bounded at input too). */
const QUOTED_NAME_LENGTH = 100;

/**
 * A user-written name as mail text: control, format and bidirectional-override characters (stored before they
 * were refused, or from elsewhere) become spaces, runs of spaces one, and the result is bounded and put in
 * quotation marks, so it reads as a name and never as the service's own words.
 */
export function quotedName(name: string): string {
  const clean = name.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, " ").replace(/\s+/g, " ").trim();
  const bounded = [...clean].length > QUOTED_NAME_LENGTH ? `${[...clean].slice(0, QUOTED_NAME_LENGTH - 1).join("")}…` : clean;
  return `“${bounded}”`;
}

const IGNORE = "If you did not ask for this, you can ignore this message.";

/** A one-time code to type in (no link: the code is only useful where it was asked for). */
export function codeMail({ to, subject, intro, code, lifetimeSeconds, outro }: Omit<ActionMail, "action" | "url" | "lifetimeSeconds"> & { code: string; lifetimeSeconds: number }): MailMessage {
  const lifetime = `This code expires in ${describeLifetime(lifetimeSeconds)} and works once.`;
  const utc = / UTC\b/.test(intro) ? TIMES_ARE_UTC : "";
  const text = [`${PRODUCT_NAME}`, "", intro, "", `Your code: ${code}`, "", lifetime, outro, "", utc, ""].filter((line, i, all) => line || all[i - 1] !== "").join("\n");
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1b1b1f">
<p style="font-weight:700">${PRODUCT_NAME}</p>
<p>${escapeHtml(intro)}</p>
<p style="font-size:1.5rem;font-weight:700;letter-spacing:.2em">${escapeHtml(code)}</p>
<p style="color:#62626e;font-size:.9rem">${escapeHtml(lifetime)} ${escapeHtml(outro)}</p>
${utc ? `<p style="color:#62626e;font-size:.8rem">${utc}</p>\n` : ""}</body></html>`;
  return { to, subject: `${subject} · ${PRODUCT_NAME}`, text, html };
}

/** A new way into an account, for the owner's notice. `provider` is a configured provider's display name. */
export type NewWayIn =
  | { kind: "passkey" }
  | { kind: "password" }
  | { kind: "linked"; provider: string }
  /** `application`: an OpenID client's name as an admin registered it. */
  | { kind: "application"; application: string };

const NEW_WAY_IN_SUBJECTS: Record<NewWayIn["kind"], string> = {
  passkey: "A passkey was added to your account",
  password: "A password was set on your account",
  linked: "An account was linked to your account",
  application: "An application was given lasting access to your account",
};

const NEW_WAY_IN_REMEDY: Record<NewWayIn["kind"], string> = {
  passkey: "sign in, delete the passkey from your account's Passkeys page, and sign out your other sessions.",
  password: "reset your password from the sign-in page (\"Forgot password?\"), and sign out your other sessions.",
  linked: "sign in, unlink it from your account's Linked accounts page, and sign out your other sessions.",
  application: "sign in, revoke its access from your account's Applications page, and sign out everywhere from your account's activity page.",
};

function newWayInSentence(what: NewWayIn): string {
  switch (what.kind) {
    case "passkey":
      return "A passkey was added to your account";
    case "password":
      return "A password was set on your account";
    case "linked":
      return `A ${what.provider} account was linked to your account, so it can now be used to sign in`;
    case "application":
      return `${what.application} was allowed to keep using your account, also while you are signed out`;
  }
}

/** Security changes mailed to the owner that are not new ways in (ADR 048). */
export type SecurityChange = "password_changed" | "password_reset" | "two_factor_disabled";

const SECURITY_CHANGE_SUBJECTS: Record<SecurityChange, string> = {
  password_changed: "The password of your account was changed",
  password_reset: "The password of your account was reset",
  two_factor_disabled: "Two-factor authentication was turned off for your account",
};

const SECURITY_CHANGE_REMEDY: Record<SecurityChange, string> = {
  password_changed: 'reset your password from the sign-in page ("Forgot password?") and sign out everywhere from your account\'s activity page.',
  password_reset: "reset it again from the sign-in page (\"Forgot password?\"), sign out everywhere from your account's activity page, and make sure nobody else can read your email.",
  two_factor_disabled: "choose \"This wasn't me — sign out everywhere\" on your account's activity page, reset your password, and turn two-factor authentication on again.",
};

/** "26 November 2026 at 13:00 UTC": the same for every reader, whatever their time zone. */
export function describeMoment(at: Date): string {
  const date = at.toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
  const time = at.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", hour12: false, timeZone: "UTC" });
  return `${date} at ${time} UTC`;
}

export const emails = withKinds({
  verifyEmail: (to: string, url: string, lifetimeSeconds: number) =>
    actionMail({
      to,
      subject: "Verify your email address",
      intro: `Please confirm that ${to} is your email address.`,
      action: "Verify email address",
      url,
      lifetimeSeconds,
      outro: IGNORE,
    }),
  resetPassword: (to: string, url: string, lifetimeSeconds: number) =>
    actionMail({
      to,
      subject: "Reset your password",
      intro: "Somebody asked to reset the password of your account. Choose a new password with the link below.",
      action: "Reset password",
      url,
      lifetimeSeconds,
      outro: IGNORE,
    }),
  /**
   * After "This wasn't me" (issue 41): its own mail, not the reset request's. The person told us they are under
   * attack: everything was signed out, and the old password still works until they choose a new one.
   */
  signedOutEverywhere: (to: string, url: string, lifetimeSeconds: number, done: { at: Date; emailChangeRefused?: string }) =>
    actionMail({
      to,
      subject: "You signed out everywhere: now choose a new password",
      intro: `${done.emailChangeRefused ? `You cancelled the change of your account's email address to ${done.emailChangeRefused} and chose "This wasn't me"` : `You chose "This wasn't me — sign out everywhere"`} on ${describeMoment(done.at)}. Every device that was signed in to your account was signed out, the one you used too, and the devices you had signed in from were forgotten. Choose a new password now with the link below: until you do, your old password still works for anyone who knows it.`,
      action: "Choose a new password",
      url,
      lifetimeSeconds,
      outro: "Then sign in and review your account's activity. If you used the same password on other sites, change it there too.",
    }),
  /** "This wasn't me" on an account without a password: what ended, and the ways in to check. */
  signedOutEverywhereWithoutPassword: (to: string, signInUrl: string, done: { at: Date; emailChangeRefused?: string }) =>
    actionMail({
      to,
      subject: "You signed out everywhere",
      intro: `${done.emailChangeRefused ? `You cancelled the change of your account's email address to ${done.emailChangeRefused} and chose "This wasn't me"` : `You chose "This wasn't me — sign out everywhere"`} on ${describeMoment(done.at)}. Every device that was signed in to your account was signed out, the one you used too, and the devices you had signed in from were forgotten. Your account has no password, so there is none to change.`,
      action: "Sign in",
      url: signInUrl,
      outro: "Sign in again with a way only you have, then review your account's activity and remove any passkey or linked account you do not recognise.",
    }),
  /** After a reset (by link or by code): when, what ended with it, and what to do if it was not the owner. */
  /** Once per lock of an account's password bucket (issue 39 §1, ADR 057). */
  accountLocked: (to: string, lock: { scope: "new_devices" | "device"; until: Date }, activityUrl: string) =>
    actionMail({
      to,
      subject: "Wrong passwords were tried on your account",
      intro: `Too many wrong passwords were tried on your account ${lock.scope === "device" ? "from one of the devices you have signed in with" : "from devices you have not signed in with before"}, so password sign-in ${lock.scope === "device" ? "from that device" : "from new devices"} is paused until ${describeMoment(lock.until)}. Still open to you: ${lock.scope === "device" ? "your other devices" : "the devices you have signed in with before"}, your passkeys, a sign-in code by email, and a password reset link.`,
      action: "Review your account activity",
      url: activityUrl,
      outro:
        "If these attempts were not yours, someone may be guessing your password: choose a new one by resetting it from the sign-in page (\"Forgot password?\"), and use a password you use nowhere else.",
    }),
  passwordWasReset: (to: string, at: Date, activityUrl: string, sessionsEnded: boolean) =>
    actionMail({
      to,
      subject: "The password of your account was reset",
      intro: `The password of your account was reset on ${describeMoment(at)}${sessionsEnded ? ", and every device that was signed in was signed out" : ""}. If this was you, there is nothing to do.`,
      action: "Review your account activity",
      url: activityUrl,
      outro:
        "If this was not you, someone can read your email: secure your email account first, then reset your password again from the sign-in page (\"Forgot password?\") and sign out everywhere from your account's activity page.",
    }),
  confirmEmailChange: (to: string, newEmail: string, url: string, lifetimeSeconds: number) =>
    actionMail({
      to,
      subject: "Confirm your new email address",
      intro: `Somebody asked to change the email address of your account from ${to} to ${newEmail}. Confirm the change with the link below; we will then ask ${newEmail} to verify itself.`,
      action: "Confirm email change",
      url,
      lifetimeSeconds,
      outro: "If you did not ask for this, ignore this message and consider changing your password.",
    }),
  /** Sent instead of a verification link when someone signs up with an address that already has an account. */
  signUpAttempt: (to: string, signInUrl: string) =>
    actionMail({
      to,
      subject: "Someone tried to create an account with your address",
      intro: `Somebody tried to create a new account for ${to}, but you already have one. If it was you, sign in instead; if you forgot your password, you can reset it from the sign-in page.`,
      action: "Sign in",
      url: signInUrl,
      outro: "If it was not you, nothing changed and you can ignore this message.",
    }),
  confirmAccountDeletion: (to: string, url: string, lifetimeSeconds: number) =>
    actionMail({
      to,
      subject: "Confirm the deletion of your account",
      intro: "Somebody asked to delete your account and everything in it. This cannot be undone. Confirm with the link below while signed in.",
      action: "Delete my account",
      url,
      lifetimeSeconds,
      outro: "If you did not ask for this, ignore this message and consider changing your password.",
    }),
  /**
   * The organization's and the inviter's names are written by users and mailed to any address: they stay out of
   * the subject, and the body quotes them as names (issue 24, item 9).
   */
  invitation: (to: string, organizationName: string, inviter: string, role: string, url: string, lifetimeSeconds: number, teamNames: string[] = []) =>
    actionMail({
      to,
      subject: "You are invited to join an organization",
      intro: `${quotedName(inviter)} invited you to join the organization named ${quotedName(organizationName)} as ${role}${teamNames.length ? `, in the ${teamNames.length === 1 ? "team" : "teams"} ${teamNames.map(quotedName).join(", ")}` : ""}. Open the invitation to accept or decline it; without an account you can create one from there.`,
      action: "Open the invitation",
      url,
      lifetimeSeconds,
      outro: "If you do not know this organization, you can ignore this message.",
    }),
  /**
   * A new way into the account was added (ADR 030): what, when, and what to do if it was not the owner. The
   * subject and the text name no user-written text, only what this service chose (a provider's configured name).
   */
  newWayIn: (to: string, what: NewWayIn, at: Date, manageUrl: string, activityUrl?: string) =>
    actionMail({
      to,
      subject: NEW_WAY_IN_SUBJECTS[what.kind],
      intro: `${newWayInSentence(what)} on ${describeMoment(at)}. If this was you, there is nothing to do.`,
      action: "Review your account",
      url: manageUrl,
      outro: `If this was not you, someone has access to your account: ${NEW_WAY_IN_REMEDY[what.kind]}`,
      activityUrl,
    }),
  /**
   * A sign-in from a browser that had not signed in to the account before (ADR 039, ADR 048): when, the device
   * in words, how, and from which IP address. The device name is this service's reading of the User-Agent.
   */
  securityMailNewDevice: (to: string, sign: { at: Date; device: string; method: string; ipAddress: string | null }, activityUrl: string, resetUrl: string) =>
    actionMail({
      to,
      subject: "New sign-in to your account",
      intro: `Someone signed in to your account ${sign.method} from a new device (${sign.device}${sign.ipAddress ? `, IP address ${sign.ipAddress}` : ""}) on ${describeMoment(sign.at)}. If this was you, there is nothing to do.`,
      action: "Review your account activity",
      url: activityUrl,
      outro: `If this was not you, open your account's activity page and choose "This wasn't me — sign out everywhere"; we will mail you a link to choose a new password. If you cannot sign in any more, choose a new password from the link below first.`,
      resetUrl,
    }),
  /** A change to how the account is protected (password, two-factor): one sentence, and what to do if it was not them. */
  securityMailChange: (to: string, change: SecurityChange, at: Date, activityUrl: string) =>
    actionMail({
      to,
      subject: SECURITY_CHANGE_SUBJECTS[change],
      intro: `${SECURITY_CHANGE_SUBJECTS[change]} on ${describeMoment(at)}. If this was you, there is nothing to do.`,
      action: "Review your account activity",
      url: activityUrl,
      outro: `If this was not you, someone has access to your account: ${SECURITY_CHANGE_REMEDY[change]}`,
    }),
  /**
   * The account's address was changed: sent to the OLD address, naming the new one in full, since the old inbox
   * is where the owner still reads mail if someone else made the change.
   */
  securityMailEmailChanged: (oldEmail: string, newEmail: string, at: Date, activityUrl: string) =>
    actionMail({
      to: oldEmail,
      subject: "The email address of your account was changed",
      intro: `The email address of your account was changed from ${oldEmail} to ${newEmail} on ${describeMoment(at)}, so mail about your account now goes to ${newEmail}. If this was you, there is nothing to do.`,
      action: "Review your account activity",
      url: activityUrl,
      outro: `If this was not you, sign in while you still can, choose "This wasn't me — sign out everywhere" on the activity page and change the address back on your profile; if you can no longer sign in, contact this site's support with this message: it shows you were the owner of ${oldEmail}.`,
    }),
  twoFactorCode: (to: string, code: string, lifetimeSeconds: number) =>
    codeMail({
      to,
      subject: "Your two-factor code",
      intro: "Somebody signed in to your account with its password and asked for a second-step code by email.",
      code,
      lifetimeSeconds,
      outro: "If this was not you, change your password.",
    }),
  /** Step-up (issue 39 §4, ADR 059): a signed-in person asked to confirm it's them with a code by e-mail. */
  reverifyCode: (to: string, code: string, lifetimeSeconds: number) =>
    codeMail({
      to,
      subject: "Your code to confirm it's you",
      intro: "Someone signed in to your account asked for this code to confirm it's them before a sensitive change (such as a new email address or turning off two-factor authentication).",
      code,
      lifetimeSeconds,
      outro: "If this was not you, do not share the code: someone may be using your account. Sign out everywhere from your account's activity page and change your password.",
    }),
  /** A right password from a browser new to the account (issue 39 §3, ADR 058): the code that confirms it. */
  newDeviceCode: (to: string, code: string, lifetimeSeconds: number, sign: { at: Date; device: string; ipAddress: string | null }) =>
    codeMail({
      to,
      subject: "Confirm it's you",
      intro: `Someone entered your password from a device your account has not been used from (${sign.device}${sign.ipAddress ? `, IP address ${sign.ipAddress}` : ""}) on ${describeMoment(sign.at)}. If this was you, enter this code to finish signing in.`,
      code,
      lifetimeSeconds,
      outro: "If this wasn't you, change your password: whoever tried knows it. Nobody is signed in without this code.",
    }),
  emailOtp: (to: string, code: string, type: "sign-in" | "email-verification" | "forget-password", lifetimeSeconds: number) =>
    codeMail({
      to,
      subject: { "sign-in": "Your sign-in code", "email-verification": "Your verification code", "forget-password": "Your password reset code" }[type],
      intro: {
        "sign-in": "Use this code to sign in to Latchkey.",
        "email-verification": `Use this code to confirm that ${to} is your email address.`,
        "forget-password": "Use this code to choose a new password for your account.",
      }[type],
      code,
      lifetimeSeconds,
      outro: IGNORE,
    }),
});
