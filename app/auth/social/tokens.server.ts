// Provider tokens at rest: access, refresh and ID tokens encrypted with a key derived from AUTH_SECRET (a leaked
// database alone does not let anyone act at the provider as the user, nor present a recent ID token); expiries
// as they are. ID tokens stored in clear before (docs/decisions/031-id-token-sign-in.md) were removed by the
// migration 20261126130000_id_tokens_encrypted, and one that is not readable reads as none.
import { decrypt, encrypt } from "~/auth/core/crypto.server";
import type { ProviderTokens } from "~/auth/social/providers/registry.server";
import type { Account } from "~/generated/prisma-sqlite/client";

export function accountTokenData(tokens: ProviderTokens) {
  return {
    accessToken: tokens.accessToken ? encrypt(tokens.accessToken) : null,
    refreshToken: tokens.refreshToken ? encrypt(tokens.refreshToken) : null,
    idToken: tokens.idToken ? encrypt(tokens.idToken) : null,
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
export const readIdToken = (account: Pick<Account, "idToken">) => open(account.idToken);
