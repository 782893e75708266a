// Provider tokens at rest: access and refresh tokens encrypted with a key derived from AUTH_SECRET (a leaked
// database alone does not let anyone act at the provider as the user); ID tokens and expiries as they are.
import { decrypt, encrypt } from "~/auth/crypto.server";
import type { ProviderTokens } from "~/auth/social/providers.server";
import type { Account } from "~/generated/prisma-sqlite/client";

export function accountTokenData(tokens: ProviderTokens) {
  return {
    accessToken: tokens.accessToken ? encrypt(tokens.accessToken) : null,
    refreshToken: tokens.refreshToken ? encrypt(tokens.refreshToken) : null,
    idToken: tokens.idToken,
    accessTokenExpiresAt: tokens.accessTokenExpiresAt,
    scope: tokens.scopes.length ? tokens.scopes.join(",") : null,
  };
}

/** The plain token, or null when absent or not readable with this AUTH_SECRET (it changed since). */
function open(sealed: string | null): string | null {
  if (!sealed) return null;
  try {
    return decrypt(sealed);
  } catch {
    return null;
  }
}

export const readAccessToken = (account: Pick<Account, "accessToken">) => open(account.accessToken);
export const readRefreshToken = (account: Pick<Account, "refreshToken">) => open(account.refreshToken);
