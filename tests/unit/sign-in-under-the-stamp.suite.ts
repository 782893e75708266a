// Issue 38, item 2 (ADR 055): a sign-in in flight must not outlive the revocation of its credential. For each
// door — password by e-mail, username, passkey, provider, and the two-factor finish — the revocation is made to
// commit between the credential's check and the session's insert, not hoped for: `sessionStartProbe` runs it just
// before the session start takes the user row's lock, which is where a racing request commits in production.
// Then the sign-in must give the door's answer to a wrong credential and leave no session of the old credential.
// Run once per database by sign-in-under-the-stamp.sqlite.test.ts and sign-in-under-the-stamp.postgres.test.ts.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseKind } from "../support/database";
import { openDomain, type DomainHandle } from "../support/domain";
import { cbor, SoftAuthenticator } from "../support/webauthn";

type Ctx = import("~/auth/request-context.server").RequestContext;
const ORIGIN = "http://localhost:3000";
const PASSWORD = "the old password, long enough";

/** A request as the domain sees it, carrying the cookies an earlier answer set. */
function requestCtx(from?: Ctx): Ctx {
  const cookie = from ? from.responseHeaders.getSetCookie().map((c) => c.split(";")[0]).join("; ") : "";
  const request = new Request(`${ORIGIN}/api/auth/test`, { method: "POST", headers: { cookie, "user-agent": "vitest", origin: ORIGIN } });
  return { request, clientIp: "203.0.113.7", userAgent: "vitest", responseHeaders: new Headers() };
}

export function signInUnderTheStampSuite(kind: DatabaseKind) {
  let domain: DomainHandle;
  let sessions: typeof import("~/auth/session/sessions.server");
  let credentials: typeof import("~/auth/sign-in/credentials.server");
  let door: typeof import("~/auth/sign-in/first-factor.server");
  let attempts: typeof import("~/auth/two-factor/attempt.server");
  let passwords: typeof import("~/auth/account/password.server");

  beforeAll(async () => {
    domain = await openDomain(kind);
    sessions = await import("~/auth/session/sessions.server");
    credentials = await import("~/auth/sign-in/credentials.server");
    door = await import("~/auth/sign-in/first-factor.server");
    attempts = await import("~/auth/two-factor/attempt.server");
    passwords = await import("~/auth/account/password.server");
  }, 60_000); // a scratch database, migrated: longer than the default on a loaded machine
  afterEach(() => {
    sessions.sessionStartProbe.beforeLock = undefined;
  });
  afterAll(async () => {
    await domain?.close();
  });

  /** The next session start for `userId` first lets `revocation` commit: the race, in the order that hurts. */
  function revokeJustBeforeTheSessionStarts(userId: string, revocation: () => Promise<unknown>) {
    sessions.sessionStartProbe.beforeLock = async (starting) => {
      if (starting !== userId) return;
      sessions.sessionStartProbe.beforeLock = undefined;
      await revocation();
    };
  }

  async function user(options: { verified?: boolean; username?: string; twoFactor?: boolean } = {}) {
    const email = `stamp-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
    const verified = options.verified !== false;
    const created = await domain.db.user.create({
      data: {
        name: "Stamp",
        email,
        emailVerified: verified,
        inboxProvenAt: verified ? new Date() : null,
        username: options.username ?? null,
        twoFactorEnabled: options.twoFactor === true,
        accounts: { create: { providerId: "credential", accountId: email, password: await passwords.hashPassword(PASSWORD) } },
      },
    });
    return created;
  }

  /** A signed-in session of the owner's own, for revocations that need one (passkey removal, unlink). */
  async function ownerSession(userId: string) {
    const session = await domain.db.session.create({ data: { userId, token: `owner-${userId}-${Math.random()}`, expiresAt: new Date(Date.now() + 3_600_000) } });
    const found = await domain.db.user.findUniqueOrThrow({ where: { id: userId } });
    return { session, user: found };
  }

  const sessionsOf = (userId: string, except?: string) => domain.db.session.count({ where: { userId, ...(except ? { id: { not: except } } : {}) } });

  describe("every door refuses a sign-in whose credential was revoked while it was in flight", () => {
    it("password by e-mail, against a password reset: 401 as a wrong password, and no session", async () => {
      const owner = await user();
      const flows = await import("~/auth/account/password-flows.server");
      const newHash = await passwords.hashPassword("the new password, long enough");
      revokeJustBeforeTheSessionStarts(owner.id, () => flows.replacePassword(requestCtx(), owner.id, owner.email, newHash));
      await expect(credentials.signInWithEmail(requestCtx(), { email: owner.email, password: PASSWORD })).rejects.toMatchObject({
        code: "INVALID_EMAIL_OR_PASSWORD",
        status: 401,
      });
      expect(await sessionsOf(owner.id)).toBe(0);
      // Without the race the old password is simply wrong, and the new one signs in: the refusal was the race's.
      await expect(credentials.signInWithEmail(requestCtx(), { email: owner.email, password: PASSWORD })).rejects.toMatchObject({ code: "INVALID_EMAIL_OR_PASSWORD" });
      await credentials.signInWithEmail(requestCtx(), { email: owner.email, password: "the new password, long enough" });
      expect(await sessionsOf(owner.id)).toBe(1);
    });

    it("username, against the owner's claim of a never-proven account: 401 as a wrong password, and no session", async () => {
      const { signInWithUsername } = await import("~/auth/username/username.server");
      const { proveInbox } = await import("~/auth/account/claim.server");
      const squatted = await user({ verified: false, username: `squat${Date.now()}` });
      revokeJustBeforeTheSessionStarts(squatted.id, () => proveInbox(requestCtx(), squatted.id, squatted.email));
      await expect(signInWithUsername(requestCtx(), { username: squatted.username!, password: PASSWORD })).rejects.toMatchObject({
        code: "INVALID_USERNAME_OR_PASSWORD",
        status: 401,
      });
      expect(await sessionsOf(squatted.id)).toBe(0);
      expect(await domain.db.account.count({ where: { userId: squatted.id } })).toBe(0);
    });

    it("passkey, against its removal: AUTH_CANCELLED, and no session but the remover's", async () => {
      const { generateAuthenticateOptions, verifyAuthentication } = await import("~/auth/passkey/authentication.server");
      const { deletePasskey } = await import("~/auth/passkey/passkeys.server");
      const owner = await user();
      const authenticator = new SoftAuthenticator(ORIGIN);
      const { credential } = authenticator.register({ challenge: "unused", user: { id: owner.id } });
      const jwk = credential.publicKey.export({ format: "jwk" });
      const cose = cbor(new Map<number, number | Buffer>([[1, 2], [3, -7], [-1, 1], [-2, Buffer.from(jwk.x!, "base64url")], [-3, Buffer.from(jwk.y!, "base64url")]]));
      const passkey = await domain.db.passkey.create({
        data: { userId: owner.id, publicKey: cose.toString("base64url"), credentialID: credential.id.toString("base64url"), counter: 0, deviceType: "singleDevice", backedUp: false },
      });
      const remover = await ownerSession(owner.id);
      const signIn = async () => {
        const asked = requestCtx();
        const options = await generateAuthenticateOptions(asked);
        return verifyAuthentication(requestCtx(asked), { response: authenticator.authenticate(options) });
      };
      revokeJustBeforeTheSessionStarts(owner.id, () => deletePasskey(requestCtx(), remover, { id: passkey.id }));
      await expect(signIn()).rejects.toMatchObject({ code: "AUTH_CANCELLED" });
      expect(await sessionsOf(owner.id, remover.session.id)).toBe(0);
    });

    it("provider, against unlinking it: refused as a failed provider sign-in, and no session but the unlinker's", async () => {
      const { resolveIdentity } = await import("~/auth/social/sign-in.server");
      const { unlinkAccount } = await import("~/auth/social/accounts.server");
      const owner = await user();
      await domain.db.account.create({ data: { userId: owner.id, providerId: "github", accountId: `gh-${owner.id}` } });
      const unlinker = await ownerSession(owner.id);
      const provider = { id: "github", name: "GitHub" } as Parameters<typeof resolveIdentity>[1];
      const profile = { id: `gh-${owner.id}`, email: owner.email, emailVerified: true, name: "Stamp", image: null } as Parameters<typeof resolveIdentity>[2];
      const tokens = { accessToken: null, refreshToken: null, idToken: null, accessTokenExpiresAt: null, scopes: [] } as Parameters<typeof resolveIdentity>[3];
      // The provider door as the ID-token path runs it: who the identity is, then the first-factor door.
      const signIn = async () => {
        const ctx = requestCtx();
        const { user: found } = await resolveIdentity(ctx, provider, profile, tokens);
        return door.finishFirstFactor(ctx, found, { method: "social", provider: "github", providerName: "GitHub" });
      };
      revokeJustBeforeTheSessionStarts(owner.id, () => unlinkAccount(requestCtx(), unlinker, { providerId: "github" }));
      await expect(signIn()).rejects.toMatchObject({ code: "FAILED_TO_GET_USER_INFO" });
      expect(await sessionsOf(owner.id, unlinker.session.id)).toBe(0);
    });

    it("the two-factor finish, against \"This wasn't me\" committing as the second step completes: the attempt ends, and no session", async () => {
      const { endAllSessions } = await import("~/auth/security-events/end-all-sessions.server");
      const owner = await user({ twoFactor: true });
      const first = requestCtx();
      expect(await credentials.signInWithEmail(first, { email: owner.email, password: PASSWORD })).toMatchObject({ twoFactorRedirect: true });
      const second = requestCtx(first);
      const attempt = await attempts.currentAttempt(second);
      revokeJustBeforeTheSessionStarts(owner.id, () => endAllSessions(requestCtx(), { user: owner }));
      await expect(attempts.finishAttempt(second, attempt, false)).rejects.toMatchObject({ code: "INVALID_TWO_FACTOR_COOKIE", status: 401 });
      expect(await sessionsOf(owner.id)).toBe(0);
    });

    it("the two-factor finish, after a reset between the two steps: the attempt opened with the old password ends", async () => {
      const flows = await import("~/auth/account/password-flows.server");
      const owner = await user({ twoFactor: true });
      const first = requestCtx();
      expect(await credentials.signInWithEmail(first, { email: owner.email, password: PASSWORD })).toMatchObject({ twoFactorRedirect: true });
      await flows.replacePassword(requestCtx(), owner.id, owner.email, await passwords.hashPassword("the new password, long enough"));
      const second = requestCtx(first);
      await expect(attempts.finishAttempt(second, await attempts.currentAttempt(second), false)).rejects.toMatchObject({ code: "INVALID_TWO_FACTOR_COOKIE" });
      expect(await sessionsOf(owner.id)).toBe(0);
    });
  });

  describe("what does not move the version leaves a sign-in alone", () => {
    it("a sign-in racing an unrelated account's revocation starts its session", async () => {
      const owner = await user();
      const other = await user();
      const flows = await import("~/auth/account/password-flows.server");
      revokeJustBeforeTheSessionStarts(owner.id, () => flows.replacePassword(requestCtx(), other.id, other.email, "x"));
      await credentials.signInWithEmail(requestCtx(), { email: owner.email, password: PASSWORD });
      expect(await sessionsOf(owner.id)).toBe(1);
    });

    it("change-password with sign-out elsewhere keeps its own replacement session (its version is the change's)", async () => {
      const flows = await import("~/auth/account/password-flows.server");
      const owner = await user();
      const current = await ownerSession(owner.id);
      const answer = await flows.changePassword(requestCtx(), current, { currentPassword: PASSWORD, newPassword: "a changed password, long enough", revokeOtherSessions: true });
      expect(answer.token).toBeTruthy();
      expect(await domain.db.session.findMany({ where: { userId: owner.id }, select: { token: true } })).toEqual([{ token: answer.token }]);
    });
  });
}
