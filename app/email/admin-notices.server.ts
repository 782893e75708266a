// Mails that follow an administrator's act on an account (issue 41, docs/decisions/065-mails-after-this-wasnt-me-and-admin-acts.md):
// each names the actor — "An administrator of <site>" — says what changed and what the person can do, and never
// tells them to ignore it. The site is BASE_URL's host: what the person knows the site by, and nothing a user typed.
// Written in the account's language, never the administrator's (issue 44).
import { type MailDraft, withKinds } from "~/email/mailer.server";
import { actionMail, describeMoment, joined, ltr, say, type ActionMail, type Said } from "~/email/layout.server";
import type { Translator } from "~/i18n/format";

/** What an administrator did, as the owner's mail words it. */
export type AdminAct =
  | { kind: "password_set" }
  | { kind: "signed_out"; scope: "all" | "others" | "one" }
  | { kind: "banned"; until: Date | null }
  | { kind: "unbanned" }
  | { kind: "role_changed"; nowAdmin: boolean }
  | { kind: "email_changed"; from: string; to: string }
  /** Anything else an administrator did while acting as the person (impersonation): the event's type. */
  | { kind: "other"; event: string };

/** Where the mail's links lead: all absolute (BASE_URL). */
export interface AdminNoticeLinks {
  activityUrl: string;
  resetUrl: string;
  signInUrl: string;
}

function noticeOf(t: Translator, site: string, act: AdminAct, at: Date, links: AdminNoticeLinks): ActionMail {
  const host = ltr(site);
  const moment = describeMoment(t, at);
  const contact: Said = say(t, "mail.admin.contact", { site: host });
  switch (act.kind) {
    case "password_set":
      return {
        subject: t.t("mail.admin.passwordSet.subject"),
        intro: say(t, "mail.admin.passwordSet.intro", { site: host, moment }),
        action: t.t("mail.admin.passwordSet.action"),
        url: links.resetUrl,
        outro: joined(say(t, "mail.admin.passwordSet.outro"), contact),
      };
    case "signed_out":
      return {
        subject: t.t("mail.admin.signedOut.subject"),
        intro: say(t, "mail.admin.signedOut.intro", { scope: act.scope, site: host, moment }),
        action: t.t("mail.common.signIn"),
        url: links.signInUrl,
        outro: joined(say(t, "mail.admin.signedOut.outro"), contact),
      };
    case "banned":
      return {
        subject: t.t("mail.admin.banned.subject"),
        intro: act.until
          ? say(t, "mail.admin.banned.introUntil", { site: host, moment, until: describeMoment(t, act.until) })
          : say(t, "mail.admin.banned.intro", { site: host, moment }),
        outro: say(t, "mail.admin.banned.outro", { site: host }),
      };
    case "unbanned":
      return {
        subject: t.t("mail.admin.unbanned.subject"),
        intro: say(t, "mail.admin.unbanned.intro", { site: host, moment }),
        action: t.t("mail.common.signIn"),
        url: links.signInUrl,
        outro: contact,
      };
    case "role_changed": {
      const now = act.nowAdmin ? "admin" : "other";
      return {
        subject: t.t("mail.admin.roleChanged.subject", { now }),
        intro: say(t, "mail.admin.roleChanged.intro", { now, site: host, moment }),
        action: t.t("mail.common.reviewActivity"),
        url: links.activityUrl,
        outro: contact,
      };
    }
    case "email_changed":
      return {
        subject: t.t("mail.emailChanged.subject"),
        intro: say(t, "mail.admin.emailChanged.intro", { site: host, from: ltr(act.from), to: ltr(act.to), moment }),
        outro: say(t, "mail.admin.emailChanged.outro", { site: host, from: ltr(act.from) }),
      };
    case "other":
      return {
        subject: t.t("mail.admin.other.subject"),
        intro: say(t, "mail.admin.other.intro", { site: host, moment, event: act.event }),
        action: t.t("mail.common.reviewActivity"),
        url: links.activityUrl,
        outro: contact,
      };
  }
}

export const adminNotices = withKinds(
  {
    /**
     * After an administrator's act (the event's actor is an admin, ADR 049/050). `owner`: the account, whose
     * language the mail is in also when it goes to the address it had.
     */
    act: (to: string, site: string, act: AdminAct, at: Date, links: AdminNoticeLinks, owner?: { locale: string | null }): MailDraft => ({
      to,
      recipient: owner,
      // The activity page needs a sign-in that a suspended account cannot make.
      write: (t) => actionMail(t, { ...noticeOf(t, site, act, at, links), activityUrl: act.kind === "banned" ? undefined : links.activityUrl, givesTime: true }),
    }),
    /** The console's "Send a password reset link": who sent it, and that the current password still works. */
    resetLink: (to: string, site: string, url: string, lifetimeSeconds: number): MailDraft => ({
      to,
      write: (t) =>
        actionMail(t, {
          subject: t.t("mail.admin.resetLink.subject"),
          intro: say(t, "mail.admin.resetLink.intro", { site: ltr(site) }),
          action: t.t("mail.common.chooseNewPassword"),
          url,
          lifetimeSeconds,
          outro: say(t, "mail.admin.resetLink.outro", { site: ltr(site) }),
        }),
    }),
  },
  "admin",
);
