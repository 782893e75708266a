// Claim on proof (docs/decisions/028-claim-on-proof.md): anyone can register an address they do not own, so
// whatever an account gathered before its inbox was first proven may belong to somebody else. Every path that
// proves the inbox of an account (the verification link, a verification or sign-in code, a reset link or code,
// an invitation's link secret, a trusted provider vouching for the address) calls `proveInbox`; the first proof
// of a never-proven account ends everything set up before it, in one transaction, and only then marks the
// address verified. The exception: the proof comes from the browser that signed up (the sign-up browser
// cookie), i.e. from the person who set those credentials; then nothing ends.
import { promoteIfConfigured } from "~/auth/admin/bootstrap.server";
import { isSignUpBrowserOf } from "~/auth/core/cookies.server";
import { AuthError } from "~/auth/errors";
import { CREDENTIAL_PROVIDER } from "~/auth/account/password.server";
import type { RequestContext } from "~/auth/request-context.server";
import { revokeWaysIn } from "~/auth/account/revocation.server";
import { recordSecurityEvent } from "~/auth/security-events/record.server";
import { db, type Transaction, type User } from "~/db.server";

/** What a claim ended. Trusted devices end with the two-factor setup (their cookies stop matching). */
export interface Ended {
  password: boolean;
  sessions: number;
  passkeys: number;
  twoFactor: boolean;
  /** Provider ids of the linked sign-ins removed (one entry per linked account). */
  linkedAccounts: string[];
  /** Applications whose access (tokens and the consent given before the proof) ended. */
  applications: number;
}

export interface InboxProof {
  /** The user as it stands after the proof. */
  user: User;
  /** Whether the proven address is (now) the account's verified address. */
  verified: boolean;
  /** What the claim ended, or null when this proof claimed nothing (already proven, same browser, lost a race). */
  ended: Ended | null;
}

/** What the claims made while serving a request ended, for the page that answers it (API answers are unchanged). */
const endedByRequest = new WeakMap<RequestContext, Ended>();

/** What a claim ended during this request, if anything ended at all. */
export function endedBy(ctx: RequestContext): Ended | null {
  return endedByRequest.get(ctx) ?? null;
}

export function endedAnything(ended: Ended | null): ended is Ended {
  return ended !== null && (ended.password || ended.sessions > 0 || ended.passkeys > 0 || ended.twoFactor || ended.linkedAccounts.length > 0 || ended.applications > 0);
}

/**
 * Everything set up before the first proof ends (ADR 028), through the one revocation (ADR 055): the password and
 * every linked provider identity, every session, passkey and the two-factor setup (and with it every trusted-device
 * cookie), the known devices, every outstanding token, code or attempt naming the user, and what applications
 * hold — their tokens and the consents given before the proof, which may be the squatter's.
 */
async function endEverything(tx: Transaction, user: Pick<User, "id" | "twoFactorEnabled">): Promise<Ended> {
  const revoked = await revokeWaysIn(tx, user.id, {
    sessions: "all",
    everyCredential: true,
    knownDevices: true,
    outstandingTokens: "ways-in",
    applications: "tokens-and-consents",
  });
  return {
    password: revoked.accounts.some((a) => a.hadPassword),
    sessions: revoked.sessions,
    passkeys: revoked.passkeys,
    twoFactor: user.twoFactorEnabled || revoked.twoFactor > 0,
    linkedAccounts: revoked.accounts.filter((a) => a.providerId !== CREDENTIAL_PROVIDER).map((a) => a.providerId),
    applications: revoked.consents,
  };
}

/**
 * The inbox of `email` was just proven for the account `userId`. A never-proven account (its address unverified
 * and no address of it ever proven) is claimed: its password, sessions, passkeys, two-factor setup, linked
 * sign-ins and outstanding tokens end, unless `ctx` comes from the browser that signed up. Then the address is
 * verified (only if it is still the account's address) and the account counts as proven from now on.
 * `options.byCreator`: the caller established that the holder of the account's own credentials is proving it
 * (a signed-in browser of the account, or one that just proved its password); nothing ends then either.
 * `within` runs in the same transaction afterwards (a reset's new password, a provider's new link), so the
 * claim and what the proof sets up commit together. Of two proofs at once, exactly one claims: the claim is a
 * conditional update of the user row.
 */
export async function proveInbox(
  ctx: RequestContext | null,
  userId: string,
  email: string,
  within?: (tx: Transaction) => Promise<void>,
  options: { byCreator?: boolean } = {},
): Promise<InboxProof> {
  // The creator proving the inbox keeps what they set up: the sign-up browser, or (for a mailed link) a browser
  // that just proved one of the account's own ways in (ADR 028, amended by issue 37).
  const sameBrowser = options.byCreator === true || (ctx !== null && isSignUpBrowserOf(ctx.request, userId));
  const proof = await db.$transaction(async (tx) => {
    let ended: Ended | null = null;
    const now = new Date();
    const before = await tx.user.findUnique({ where: { id: userId }, select: { twoFactorEnabled: true } });
    if (!before) throw new AuthError("USER_NOT_FOUND"); // deleted a moment ago
    if (!sameBrowser) {
      const claim = await tx.user.updateMany({
        where: { id: userId, email, emailVerified: false, inboxProvenAt: null },
        data: { emailVerified: true, inboxProvenAt: now, twoFactorEnabled: false },
      });
      if (claim.count === 1) ended = await endEverything(tx, { id: userId, twoFactorEnabled: before.twoFactorEnabled });
    }
    let verifiedNow = ended !== null;
    if (!ended) {
      verifiedNow = (await tx.user.updateMany({ where: { id: userId, email, emailVerified: false }, data: { emailVerified: true } })).count > 0;
      await tx.user.updateMany({ where: { id: userId, email, inboxProvenAt: null }, data: { inboxProvenAt: now } });
    }
    // Written only when this proof is what verified the address (of two proofs at once, the one that did).
    if (verifiedNow) {
      await recordSecurityEvent(tx, { userId, type: "email_verified", ctx, details: { email, ...(ended ? { claimed: true } : {}) } });
    }
    if (within) await within(tx);
    let user = await tx.user.findUniqueOrThrow({ where: { id: userId } });
    // An address AUTH_ADMIN_EMAILS names is an admin from the moment it is verified, not its next sign-in (ADR 049).
    if (verifiedNow && (await promoteIfConfigured(user, tx))) user = await tx.user.findUniqueOrThrow({ where: { id: userId } });
    return { user, verified: user.email === email && user.emailVerified, ended };
  });
  if (ctx && endedAnything(proof.ended)) endedByRequest.set(ctx, proof.ended);
  return proof;
}
