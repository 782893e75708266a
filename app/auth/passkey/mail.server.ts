// The two messages of passkey sign-up. A code, not a link: the page that asked is the one that must go on to
// create the passkey (JavaScript is on there anyway), and the code is valid only with that browser's cookie.
import { absoluteUrl } from "~/auth/core/links.server";
import { withKinds, type MailMessage } from "~/email/mailer.server";
import { describeLifetime, PRODUCT_NAME } from "~/email/templates.server";

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function message(to: string, subject: string, paragraphs: string[], code?: string): MailMessage {
  const text = [PRODUCT_NAME, "", ...paragraphs.flatMap((p) => [p, ""]), ...(code ? [`Your code: ${code}`, ""] : [])].join("\n");
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1b1b1f">
<p style="font-weight:700">${PRODUCT_NAME}</p>
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("\n")}
${code ? `<p style="font-size:1.5rem;font-weight:700;letter-spacing:.2em;font-family:ui-monospace,monospace">${escapeHtml(code)}</p>` : ""}
</body></html>`;
  return { to, subject: `${subject} · ${PRODUCT_NAME}`, text, html };
}

export const passkeySignUpMails = withKinds(
  {
  code: (to: string, code: string, lifetimeSeconds: number) =>
    message(
      to,
      "Your sign-up code",
      [
        `Somebody is creating a ${PRODUCT_NAME} account with a passkey for ${to}. Enter the code below on the sign-up page to prove this inbox is yours.`,
        `The code expires in ${describeLifetime(lifetimeSeconds)}, works once and only in the browser that asked for it. If you did not ask for this, you can ignore this message.`,
      ],
      code,
    ),
  alreadyRegistered: (to: string) =>
    message(to, "You already have an account", [
      `Somebody tried to create a ${PRODUCT_NAME} account for ${to}, but this address already has one, so no code was made.`,
      `To get in, sign in at ${absoluteUrl("/sign-in")} or reset your password at ${absoluteUrl("/forgot-password")}. If this was not you, you can ignore this message.`,
    ]),
  },
  "passkeySignUp",
);
