// Mails that follow an administrator's act on an account (issue 41, docs/decisions/065-mails-after-this-wasnt-me-and-admin-acts.md):
// each names the actor — "An administrator of <site>" — says what changed and what the person can do, and never
// tells them to ignore it. The site is BASE_URL's host: what the person knows the site by, and nothing a user typed.
import { withKinds } from "~/email/mailer.server";
import { actionMail, describeMoment } from "~/email/templates.server";

/** What an administrator did, as the owner's mail words it. */
export type AdminAct =
  | { kind: "password_set" }
  | { kind: "signed_out"; scope: "all" | "others" | "one" }
  | { kind: "banned"; until: Date | null }
  | { kind: "unbanned" }
  | { kind: "role_changed"; nowAdmin: boolean }
  | { kind: "email_changed"; from: string; to: string }
  /** Anything else an administrator did while acting as the person (impersonation): the event's own sentence. */
  | { kind: "other"; sentence: string };

/** Where the mail's links lead: all absolute (BASE_URL). */
export interface AdminNoticeLinks {
  activityUrl: string;
  resetUrl: string;
  signInUrl: string;
}

const SIGNED_OUT: Record<"all" | "others" | "one", string> = {
  all: "signed you out of every device",
  others: "signed you out of your other devices",
  one: "signed out one of your sessions",
};

function noticeOf(site: string, act: AdminAct, moment: string, links: AdminNoticeLinks) {
  const admin = `An administrator of ${site}`;
  const contact = `If you did not expect this, contact ${site}'s administrators.`;
  switch (act.kind) {
    case "password_set":
      return {
        subject: "An administrator set a new password for your account",
        intro: `${admin} set a new password for your account on ${moment}. Your old password no longer works.`,
        action: "Choose your own password",
        url: links.resetUrl,
        outro: `Ask your administrator for the new password, or choose one of your own with the link above. ${contact}`,
      };
    case "signed_out":
      return {
        subject: "An administrator signed you out",
        intro: `${admin} ${SIGNED_OUT[act.scope]} on ${moment}.`,
        action: "Sign in",
        url: links.signInUrl,
        outro: `You can sign in again as usual. ${contact}`,
      };
    case "banned":
      return {
        subject: "Your account was suspended",
        intro: `${admin} suspended your account on ${moment}${act.until ? ` until ${describeMoment(act.until)}` : ""}. You were signed out everywhere and cannot sign in ${act.until ? "until then" : "until the suspension is lifted"}.`,
        outro: `If you think this is a mistake, contact ${site}'s administrators.`,
      };
    case "unbanned":
      return {
        subject: "Your account can be used again",
        intro: `${admin} lifted the suspension of your account on ${moment}. You can sign in again.`,
        action: "Sign in",
        url: links.signInUrl,
        outro: contact,
      };
    case "role_changed":
      return {
        subject: act.nowAdmin ? "You are now an administrator" : "You are no longer an administrator",
        intro: act.nowAdmin
          ? `${admin} made you an administrator on ${moment}: you can now manage every account of ${site} from its admin console.`
          : `${admin} removed your administrator role on ${moment}: you can no longer use the admin console.`,
        action: "Review your account activity",
        url: links.activityUrl,
        outro: contact,
      };
    case "email_changed":
      return {
        subject: "The email address of your account was changed",
        intro: `${admin} changed the email address of your account from ${act.from} to ${act.to} on ${moment}, so mail about your account now goes to ${act.to}.`,
        outro: `If you did not ask for this, contact ${site}'s administrators with this message: it shows you were the owner of ${act.from}.`,
      };
    case "other":
      return {
        subject: "An administrator changed your account",
        intro: `${admin}, acting as you, made this change on ${moment}: ${act.sentence}.`,
        action: "Review your account activity",
        url: links.activityUrl,
        outro: contact,
      };
  }
}

export const adminNotices = withKinds(
  {
    /** After an administrator's act (the event's actor is an admin, ADR 049/050). */
    act: (to: string, site: string, act: AdminAct, at: Date, links: AdminNoticeLinks) => {
      const notice = noticeOf(site, act, describeMoment(at), links);
      // The activity page needs a sign-in that a suspended account cannot make.
      return actionMail({ to, ...notice, activityUrl: act.kind === "banned" ? undefined : links.activityUrl });
    },
    /** The console's "Send a password reset link": who sent it, and that the current password still works. */
    resetLink: (to: string, site: string, url: string, lifetimeSeconds: number) =>
      actionMail({
        to,
        subject: "An administrator sent you a link to choose a new password",
        intro: `An administrator of ${site} sent you this link to choose a new password for your account.`,
        action: "Choose a new password",
        url,
        lifetimeSeconds,
        outro: `Your current password keeps working until you choose a new one. If you did not expect this, ask ${site}'s administrators why before you use the link.`,
      }),
  },
  "admin",
);
