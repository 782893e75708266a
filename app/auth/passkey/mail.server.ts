// The two messages of passkey sign-up. A code, not a link: the page that asked is the one that must go on to
// create the passkey (JavaScript is on there anyway), and the code is valid only with that browser's cookie.
import { absoluteUrl } from "~/auth/core/links.server";
import { describeLifetime, ltr, paragraphsMail, say } from "~/email/layout.server";
import { type MailDraft, withKinds } from "~/email/mailer.server";

export const passkeySignUpMails = withKinds(
  {
    code: (to: string, code: string, lifetimeSeconds: number): MailDraft => ({
      to,
      write: (t) =>
        paragraphsMail(
          t,
          t.t("mail.passkeySignUp.code.subject"),
          [
            say(t, "mail.passkeySignUp.code.intro", { email: ltr(to) }),
            say(t, "mail.passkeySignUp.code.outro", { lifetime: describeLifetime(t, lifetimeSeconds) }),
          ],
          code,
        ),
    }),
    alreadyRegistered: (to: string): MailDraft => ({
      to,
      write: (t) =>
        paragraphsMail(t, t.t("mail.passkeySignUp.registered.subject"), [
          say(t, "mail.passkeySignUp.registered.intro", { email: ltr(to) }),
          say(t, "mail.passkeySignUp.registered.outro", { signInUrl: ltr(absoluteUrl("/sign-in")), resetUrl: ltr(absoluteUrl("/forgot-password")) }),
        ]),
    }),
  },
  "passkeySignUp",
);
