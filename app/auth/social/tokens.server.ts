// Provider tokens at rest: access and refresh tokens encrypted with a key derived from AUTH_SECRET (a leaked
// database alone does not let anyone act at the provider as the user); ID tokens and expiries as they are.
import { decryptSecret, encryptSecret } from "~/auth/crypto.server";
import type { ProviderTokens } from "~/auth/social/providers.server";
import type { Account } from "~/generated/prisma-sqlite/client";

export function accountTokenData(tokens: ProviderTokens) {
  return {
    accessToken: tokens.accessToken ? encryptSecret(tokens.accessToken) : null,
    refreshToken: tokens.refreshToken ? encryptSecret(tokens.refreshToken) : null,
    idToken: tokens.idToken,
    accessTokenExpiresAt: tokens.accessTokenExpiresAt,
    scope: tokens.scopes.length ? tokens.scopes.join(",") : null,
  };
}

export const readAccessToken = (account: Pick<Account, "accessToken">) => (account.accessToken ? decryptSecret(account.accessToken) : null);
export const readRefreshToken = (account: Pick<Account, "refreshToken">) => (account.refreshToken ? decryptSecret(account.refreshToken) : null);
