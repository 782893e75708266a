// The invitation rules pages and the JSON API share, called directly against each database: who may answer an
// invitation (the invitee, with a verified address or the e-mailed link's secret) and when a sign-up that
// returns to an invitation's link starts verified.
// Run once per database by invitation-rules.sqlite.test.ts and invitation-rules.postgres.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseKind } from "../support/database";
import { openDomain, type DomainHandle } from "../support/domain";

export function invitationRulesSuite(kind: DatabaseKind) {
  let domain: DomainHandle;
  let invitations: typeof import("~/auth/organization/invitations.server");
  let verification: typeof import("~/auth/verification.server");

  beforeAll(async () => {
    // No verification mail in the background of a sign-up, to outlive the test's database.
    process.env.AUTH_EMAIL_VERIFICATION = "off";
    domain = await openDomain(kind);
    invitations = await import("~/auth/organization/invitations.server");
    verification = await import("~/auth/verification.server");
  });
  afterAll(async () => {
    await domain?.close();
  });

  let sequence = 0;
  const address = (label: string) => `${label}-${Date.now().toString(36)}-${++sequence}@example.com`;

  async function user(email = address("user"), emailVerified = false) {
    const created = await domain.db.user.create({ data: { name: "U", email, emailVerified } });
    const session = await domain.db.session.create({ data: { userId: created.id, token: `t-${created.id}`, expiresAt: new Date(Date.now() + 60_000) } });
    return { user: created, session };
  }

  /** An organization with its owner, and a pending invitation of `email` with the link secret its mail carried. */
  async function invitationFor(email: string, expiresInMs = 60_000) {
    const owner = await user(address("owner"), true);
    const organization = await domain.db.organization.create({ data: { name: "Acme", slug: `acme-${Date.now().toString(36)}-${++sequence}` } });
    await domain.db.member.create({ data: { organizationId: organization.id, userId: owner.user.id, role: "owner" } });
    const invitation = await domain.db.invitation.create({
      data: { organizationId: organization.id, email, role: "member", status: "pending", inviterId: owner.user.id, expiresAt: new Date(Date.now() + expiresInMs) },
    });
    const token = await verification.issueToken("invitation", { userId: owner.user.id, invitationId: invitation.id }, { ttlSeconds: 60, length: 43 });
    return { invitation, token };
  }

  const WRONG_SECRET = "x".repeat(43);

  describe("inviteeStanding: the one rule the invitation page shows and accepting enforces", () => {
    it.each([
      ["someone else, verified", { invitee: false, verified: true, secret: "none" }, "other-address", "YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION"],
      ["someone else, with the link's secret", { invitee: false, verified: true, secret: "right" }, "other-address", "YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION"],
      ["the invitee, unverified", { invitee: true, verified: false, secret: "none" }, "verify-email-first", "EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION"],
      ["the invitee, unverified, with a wrong secret", { invitee: true, verified: false, secret: "wrong" }, "verify-email-first", "EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION"],
      ["the invitee, unverified, with the link's secret", { invitee: true, verified: false, secret: "right" }, "may-answer", null],
      ["the invitee, verified", { invitee: true, verified: true, secret: "none" }, "may-answer", null],
    ] as const)("%s: %s", async (_label, who, standing, refusal) => {
      const invitedEmail = address("invited");
      const { invitation, token } = await invitationFor(invitedEmail);
      const current = await user(who.invitee ? invitedEmail : address("other"), who.verified);
      const secret = who.secret === "right" ? token : who.secret === "wrong" ? WRONG_SECRET : undefined;

      const asked = await invitations.inviteeStanding(current.user, invitation, secret);
      expect(asked.standing).toBe(standing);
      expect(asked.bySecret).toBe(standing === "may-answer" && who.secret === "right");

      const accepting = invitations.acceptInvitation(current, invitation.id, secret);
      if (refusal) await expect(accepting).rejects.toMatchObject({ code: refusal });
      else await expect(accepting).resolves.toMatchObject({ invitation: { status: "accepted" } });
    });
  });

  describe("signUpFromInvitationLink: an invitation link's secret proves the inbox of a new account", () => {
    const ctx = () => ({
      request: new Request("http://localhost:3000/sign-up", { method: "POST" }),
      clientIp: "127.0.0.1",
      userAgent: null,
      responseHeaders: new Headers(),
    });
    const signUp = async (email: string, returnTo: string | null) =>
      (await invitations.signUpFromInvitationLink(ctx(), { name: "New", email, password: "correct horse battery staple" }, returnTo)).user;

    it("starts verified when it returns to the invitation's link with its live secret, for the invited address", async () => {
      const email = address("proven");
      const { invitation, token } = await invitationFor(email);
      expect(await signUp(email.toUpperCase(), `/invitations/${invitation.id}?token=${token}`)).toMatchObject({ email, emailVerified: true });

      const absolute = address("absolute");
      const second = await invitationFor(absolute);
      expect(await signUp(absolute, `http://localhost:3000/invitations/${second.invitation.id}?token=${second.token}`)).toMatchObject({ emailVerified: true });
    });

    it("is an ordinary, unverified sign-up otherwise", async () => {
      const cases: Array<[string, (i: { id: string }, token: string) => string | null]> = [
        ["no way back", () => null],
        ["a page that is not an invitation", (_i, token) => `/account?token=${token}`],
        ["the link without its secret", (i) => `/invitations/${i.id}`],
        ["a wrong secret", (i) => `/invitations/${i.id}?token=${WRONG_SECRET}`],
        ["another site's address", (i, token) => `https://elsewhere.example/invitations/${i.id}?token=${token}`],
      ];
      for (const [label, returnTo] of cases) {
        const email = address("ordinary");
        const { invitation, token } = await invitationFor(email);
        expect((await signUp(email, returnTo(invitation, token))).emailVerified, label).toBe(false);
      }
      // Another address than the invited one, and an invitation that has expired.
      const invited = await invitationFor(address("invited"));
      expect((await signUp(address("other"), `/invitations/${invited.invitation.id}?token=${invited.token}`)).emailVerified).toBe(false);
      const late = address("late");
      const expired = await invitationFor(late, -1000);
      expect((await signUp(late, `/invitations/${expired.invitation.id}?token=${expired.token}`)).emailVerified).toBe(false);
    });
  });
}
