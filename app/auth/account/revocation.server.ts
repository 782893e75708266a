// The one way to end ways into an account (docs/decisions/055-one-revocation-and-sign-in-under-the-stamp.md).
// Every revocation — a claim on proof, a password reset, change or set, a passkey removed, a provider unlinked,
// sessions signed out everywhere, "This wasn't me", a ban, a deletion — calls `revokeWaysIn` inside its own
// transaction. It first moves the account's credentials version, which takes the user row's lock: a sign-in
// starting a session takes the same lock and refuses once the version it read with its first factor has moved
// (sessions.server.ts), so no sign-in in flight outlives the revocation. Then it ends what the caller names.
// tests/unit/revocation-paths.test.ts keeps every such write in this module, or named and explained there.
import { CREDENTIAL_PROVIDER } from "~/auth/account/password.server";
import { endProviderAccessOf } from "~/auth/oidc-provider/adapter.server";
import type { Transaction } from "~/db.server";

export interface Revocation {
  /** Sessions that end: every one, or every one but the caller's own. */
  sessions?: "all" | { allBut: string };
  /**
   * What applications hold through the OpenID provider: codes, access and refresh tokens, grants and the
   * provider's sessions. `tokens-and-consents` also forgets the remembered "Allow"s, so an application must ask
   * again (a consent a thief or a squatter gave would otherwise let it back in without a word).
   */
  applications?: "tokens" | "tokens-and-consents";
  /** Every sign-in method: the password and linked providers (`account` rows), passkeys, the two-factor setup. */
  everyCredential?: boolean;
  /** One passkey, by id (its owner's removal). */
  passkeyId?: string;
  /** One linked account row, by id (unlink). */
  linkedAccountId?: string;
  /** The browsers the account was used from (ADR 039): the next sign-in from any of them is new. */
  knownDevices?: boolean;
  /**
   * Outstanding links, codes and attempts naming the user. `ways-in` keeps the invitation secrets the account sent
   * (they went to other people); `all` is for a deletion, whose invitations go with it.
   */
  outstandingTokens?: "ways-in" | "all";
}

export interface Revoked {
  /** The credentials version after this revocation; null when the account is gone. */
  version: number | null;
  sessions: number;
  /** The `account` rows `everyCredential` or `linkedAccountId` removed. */
  accounts: Array<{ providerId: string; hadPassword: boolean }>;
  passkeys: number;
  twoFactor: number;
  /** Remembered consents forgotten (`tokens-and-consents`). */
  consents: number;
}

/** Token purposes that are not ways into this account: an invitation's secret was mailed to the invitee. */
const KEPT_TOKEN_PURPOSES = ["invitation:"];

/** Ends what `what` names for the user, in `tx`, after moving the credentials version (always, and first). */
export async function revokeWaysIn(tx: Transaction, userId: string, what: Revocation): Promise<Revoked> {
  // First, so the row lock is held before anything is read or deleted: a session start waiting on it sees the
  // move, and one that came first has committed its session, which the deletes below then see.
  const moved = await tx.user.updateMany({ where: { id: userId }, data: { credentialsVersion: { increment: 1 } } });
  const version = moved.count ? ((await tx.user.findUnique({ where: { id: userId }, select: { credentialsVersion: true } }))?.credentialsVersion ?? null) : null;
  const revoked: Revoked = { version, sessions: 0, accounts: [], passkeys: 0, twoFactor: 0, consents: 0 };
  if (what.sessions) {
    // Pinned by userId, so the session cache of every instance hears it (ADR 024's hooks and triggers).
    const allBut = what.sessions === "all" ? {} : { id: { not: what.sessions.allBut } };
    revoked.sessions = (await tx.session.deleteMany({ where: { userId, ...allBut } })).count;
  }
  const accounts = what.everyCredential ? { userId } : what.linkedAccountId ? { id: what.linkedAccountId, userId } : null;
  if (accounts) {
    const rows = await tx.account.findMany({ where: accounts, select: { providerId: true, password: true } });
    const { count } = await tx.account.deleteMany({ where: accounts });
    if (count > 0) revoked.accounts = rows.map((row) => ({ providerId: row.providerId, hadPassword: row.providerId === CREDENTIAL_PROVIDER && row.password !== null }));
  }
  if (what.everyCredential || what.passkeyId) {
    revoked.passkeys = (await tx.passkey.deleteMany({ where: { userId, ...(what.passkeyId ? { id: what.passkeyId } : {}) } })).count;
  }
  // The TOTP secret goes, and with it every trusted-device cookie (their fingerprint needs it).
  if (what.everyCredential) revoked.twoFactor = (await tx.twoFactor.deleteMany({ where: { userId } })).count;
  if (what.knownDevices) await tx.knownDevice.deleteMany({ where: { userId } });
  if (what.outstandingTokens) {
    await tx.verification.deleteMany({
      where: {
        value: { contains: `"userId":${JSON.stringify(userId)}` },
        ...(what.outstandingTokens === "ways-in" ? { NOT: KEPT_TOKEN_PURPOSES.map((prefix) => ({ identifier: { startsWith: prefix } })) } : {}),
      },
    });
  }
  if (what.applications) {
    await endProviderAccessOf(tx, userId);
    if (what.applications === "tokens-and-consents") revoked.consents = (await tx.oidcConsent.deleteMany({ where: { userId } })).count;
  }
  return revoked;
}
