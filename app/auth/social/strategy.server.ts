// The provider's return as a remix-auth strategy: read the code, exchange it (with the PKCE verifier kept in the
// state), read the user, and hand both to the verify function, which decides who signs in.
import { Strategy } from "remix-auth/strategy";
import type { ProviderTokens, SocialProfile, SocialProvider } from "~/auth/social/providers/registry.server";
import type { OAuthState } from "~/auth/social/state.server";
import { AuthError } from "~/auth/errors";
import type { User } from "~/db.server";

export interface CallbackOutcome {
  user: User | null;
  isNew: boolean;
  /** The user has two-factor on: the browser goes to the second step instead of the callback. */
  twoFactor: boolean;
}

/** A failure that only exists on the return trip, reported as its /error code (spec §8). */
export class CallbackError extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

export class SocialCallbackStrategy extends Strategy<CallbackOutcome, { profile: SocialProfile; tokens: ProviderTokens }> {
  name: string;

  constructor(
    private readonly provider: SocialProvider,
    private readonly state: OAuthState,
    verify: Strategy.VerifyFunction<CallbackOutcome, { profile: SocialProfile; tokens: ProviderTokens }>,
  ) {
    super(verify);
    this.name = provider.id;
  }

  async authenticate(request: Request): Promise<CallbackOutcome> {
    const code = new URL(request.url).searchParams.get("code");
    if (!code) throw new CallbackError("no_code");
    let tokens: ProviderTokens;
    try {
      tokens = await this.provider.exchangeCode(code, this.state.codeVerifier);
    } catch (error) {
      if (error instanceof AuthError) throw error;
      throw new CallbackError("invalid_code");
    }
    let profile: SocialProfile;
    try {
      profile = await this.provider.profile(tokens, this.state.nonce);
    } catch (error) {
      if (error instanceof AuthError && error.code === "INVALID_TOKEN") throw new CallbackError("invalid_token");
      throw new AuthError("FAILED_TO_GET_USER_INFO");
    }
    return this.verify({ profile, tokens });
  }
}
