// A user's linked accounts: list, unlink (never the last way in), and the provider tokens kept on them.
import { revokeWaysIn } from "~/auth/account/revocation.server";
import { AuthError } from "~/auth/errors";
import { isFresh, type SessionWithUser } from "~/auth/session/sessions.server";
import { enabledProviders, providerFor } from "~/auth/social/providers/registry.server";
import type { RequestContext } from "~/auth/request-context.server";
import { recordSecurityEvent } from "~/auth/security-events/record.server";
import { accountTokenData, readAccessToken, readIdToken, readRefreshToken } from "~/auth/social/tokens.server";
import { db } from "~/db.server";

const CREDENTIAL_PROVIDER = "credential";

/** A provider's configured display name ("a password" for the credential account), for the event. */
function providerName(providerId: string): string {
  if (providerId === CREDENTIAL_PROVIDER) return "Password";
  return enabledProviders().find((provider) => provider.id === providerId)?.name ?? providerId;
}

/** GET /list-accounts: Better Auth 1.7's shape (providerId, scopes as a list) plus the specification's `provider`. */
export async function listAccounts(userId: string) {
  const accounts = await db.account.findMany({ where: { userId }, orderBy: { createdAt: "asc" } });
  return accounts.map((account) => ({
    id: account.id,
    providerId: account.providerId,
    provider: account.providerId,
    accountId: account.accountId,
    createdAt: account.createdAt,
    updatedAt: account.updatedAt,
    scopes: account.scope ? account.scope.split(",").filter(Boolean) : [],
  }));
}

/** POST /unlink-account: needs a fresh session, and leaves the user at least one way in (a passkey counts). */
export async function unlinkAccount(ctx: RequestContext, current: SessionWithUser, input: { providerId: string; accountId?: string }) {
  if (!isFresh(current.session)) throw new AuthError("SESSION_IS_NOT_FRESH");
  const accounts = await db.account.findMany({ where: { userId: current.user.id } });
  const target = accounts.find((a) => a.providerId === input.providerId && (!input.accountId || a.accountId === input.accountId));
  if (!target) throw new AuthError("ACCOUNT_NOT_FOUND");
  const passkeys = await db.passkey.count({ where: { userId: current.user.id } });
  const waysIn = accounts.filter((a) => a.providerId !== CREDENTIAL_PROVIDER || a.password).length + passkeys;
  const targetIsWayIn = target.providerId !== CREDENTIAL_PROVIDER || Boolean(target.password);
  if (targetIsWayIn && waysIn <= 1) throw new AuthError("YOU_CANT_UNLINK_YOUR_LAST_ACCOUNT");
  await db.$transaction(async (tx) => {
    // Through the one revocation (ADR 055): a sign-in through this link in flight starts no session.
    const { accounts } = await revokeWaysIn(tx, current.user.id, { linkedAccountId: target.id });
    if (accounts.length === 0) throw new AuthError("ACCOUNT_NOT_FOUND"); // unlinked a moment ago
    await recordSecurityEvent(tx, { userId: current.user.id, type: "account_unlinked", ctx, sessionId: current.session.id, details: { provider: target.providerId, providerName: providerName(target.providerId) } });
  });
  return { status: true };
}

async function findLinked(userId: string, input: { providerId: string; accountId?: string }) {
  const account = await db.account.findFirst({
    where: { userId, providerId: input.providerId, ...(input.accountId ? { accountId: input.accountId } : {}) },
  });
  if (!account || input.providerId === CREDENTIAL_PROVIDER) throw new AuthError("ACCOUNT_NOT_FOUND");
  return account;
}

/** POST /refresh-token: asks the provider for a new access token now. */
export async function refreshAccountToken(userId: string, input: { providerId: string; accountId?: string }) {
  const account = await findLinked(userId, input);
  const provider = providerFor(account.providerId);
  const refreshToken = readRefreshToken(account);
  if (!provider.refresh || !refreshToken) throw new AuthError("FAILED_TO_GET_A_VALID_ACCESS_TOKEN");
  let tokens;
  try {
    tokens = await provider.refresh(refreshToken);
  } catch {
    throw new AuthError("FAILED_TO_GET_A_VALID_ACCESS_TOKEN");
  }
  const data = accountTokenData({ ...tokens, refreshToken: tokens.refreshToken ?? refreshToken, idToken: tokens.idToken ?? readIdToken(account) });
  const updated = await db.account.update({ where: { id: account.id }, data });
  return tokenAnswer(updated);
}

/** POST /get-access-token: the stored access token, refreshed first when it has expired. */
export async function getAccessToken(userId: string, input: { providerId: string; accountId?: string }) {
  const account = await findLinked(userId, input);
  const expired = account.accessTokenExpiresAt !== null && account.accessTokenExpiresAt.getTime() - 5_000 <= Date.now();
  if (expired) return refreshAccountToken(userId, input);
  if (!readAccessToken(account)) throw new AuthError("FAILED_TO_GET_A_VALID_ACCESS_TOKEN");
  return tokenAnswer(account);
}

function tokenAnswer(account: Awaited<ReturnType<typeof findLinked>>) {
  return {
    accessToken: readAccessToken(account),
    accessTokenExpiresAt: account.accessTokenExpiresAt,
    refreshToken: readRefreshToken(account),
    refreshTokenExpiresAt: account.refreshTokenExpiresAt,
    scopes: account.scope ? account.scope.split(",").filter(Boolean) : [],
    idToken: readIdToken(account),
  };
}
