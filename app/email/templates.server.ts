// Every message the product sends: a text and an HTML part, the product's name, one clear action link
// (absolute, built from BASE_URL) and how long that link lives.
import type { MailMessage } from "~/email/mailer.server";

export const PRODUCT_NAME = "Latchkey";

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** "1 hour", "24 hours", "10 minutes". */
export function describeLifetime(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? "1 hour" : `${seconds / 3600} hours`;
  if (seconds % 60 === 0) return seconds === 60 ? "1 minute" : `${seconds / 60} minutes`;
  return seconds === 1 ? "1 second" : `${seconds} seconds`;
}

interface ActionMail {
  to: string;
  subject: string;
  intro: string;
  action: string;
  url: string;
  /** How long the link works; absent for a plain link to a page. */
  lifetimeSeconds?: number;
  outro: string;
}

function actionMail({ to, subject, intro, action, url, lifetimeSeconds, outro }: ActionMail): MailMessage {
  const lifetime = lifetimeSeconds ? `This link expires in ${describeLifetime(lifetimeSeconds)} and works once.` : "";
  const text = [`${PRODUCT_NAME}`, "", intro, "", `${action}: ${url}`, "", lifetime, outro, ""].filter((line, i, all) => line || all[i - 1] !== "").join("\n");
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1b1b1f">
<p style="font-weight:700">${PRODUCT_NAME}</p>
<p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(url)}" style="display:inline-block;padding:.5rem 1rem;background:#4646e6;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action)}</a></p>
<p style="color:#62626e;font-size:.9rem">${escapeHtml(`${lifetime} ${outro}`.trim())}</p>
<p style="color:#62626e;font-size:.8rem">If the button does not work, open this address: ${escapeHtml(url)}</p>
</body></html>`;
  return { to, subject: `${subject} · ${PRODUCT_NAME}`, text, html };
}

const IGNORE = "If you did not ask for this, you can ignore this message.";

/** A one-time code to type in (no link: the code is only useful where it was asked for). */
export function codeMail({ to, subject, intro, code, lifetimeSeconds, outro }: Omit<ActionMail, "action" | "url" | "lifetimeSeconds"> & { code: string; lifetimeSeconds: number }): MailMessage {
  const lifetime = `This code expires in ${describeLifetime(lifetimeSeconds)} and works once.`;
  const text = [`${PRODUCT_NAME}`, "", intro, "", `Your code: ${code}`, "", lifetime, outro, ""].join("\n");
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1b1b1f">
<p style="font-weight:700">${PRODUCT_NAME}</p>
<p>${escapeHtml(intro)}</p>
<p style="font-size:1.5rem;font-weight:700;letter-spacing:.2em">${escapeHtml(code)}</p>
<p style="color:#62626e;font-size:.9rem">${escapeHtml(lifetime)} ${escapeHtml(outro)}</p>
</body></html>`;
  return { to, subject: `${subject} · ${PRODUCT_NAME}`, text, html };
}

export const emails = {
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
  invitation: (to: string, organizationName: string, inviter: string, role: string, url: string, lifetimeSeconds: number) =>
    actionMail({
      to,
      subject: `Join ${organizationName}`,
      intro: `${inviter} invited you to join the organization ${organizationName} as ${role}. Open the invitation to accept or decline it; without an account you can create one from there.`,
      action: "Open the invitation",
      url,
      lifetimeSeconds,
      outro: "If you do not know this organization, you can ignore this message.",
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
};
