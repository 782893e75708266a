// Signing in with a passkey: options for discoverable credentials (the same answer whoever asks, so an e-mail
// reveals nothing), then the assertion verified against the stored public key and counter.
import type { AuthenticationResponseJSON, AuthenticatorTransport } from "@simplewebauthn/server";
import { AuthError } from "~/auth/errors";
import { rememberChallenge, takeChallenge } from "~/auth/passkey/challenge.server";
import { CEREMONY_TIMEOUT_SECONDS, relyingParty } from "~/auth/passkey/relying-party.server";
import { publicSession, publicUser } from "~/auth/core/presenters.server";
import type { RequestContext } from "~/auth/request-context.server";
import { finishFirstFactor } from "~/auth/sign-in/first-factor.server";
import { publicKeyFromText, webauthn } from "~/auth/passkey/webauthn.server";
import { db, type Passkey } from "~/db.server";
import { countingRefusals } from "~/observability/sign-ins.server";

/** POST and GET /passkey/generate-authenticate-options. `email` is accepted and deliberately unused. */
export async function generateAuthenticateOptions(ctx: RequestContext, _input: { email?: string } = {}) {
  const { generateAuthenticationOptions } = await webauthn();
  const options = await generateAuthenticationOptions({
    rpID: relyingParty.id,
    allowCredentials: [],
    userVerification: "preferred",
    timeout: CEREMONY_TIMEOUT_SECONDS * 1000,
  });
  await rememberChallenge(ctx, { userId: null, kind: "authenticate", challenge: options.challenge });
  return options;
}

/** POST /passkey/verify-authentication → {session, user} and the session cookie. Every failure: AUTH_CANCELLED. */
export async function verifyAuthentication(ctx: RequestContext, input: { response: AuthenticationResponseJSON }) {
  const challenge = await takeChallenge(ctx, "authenticate");
  // A passkey no account has, or an assertion that does not verify: a failed sign-in (ADR 062).
  const { passkey, userVerified } = await countingRefusals("passkey", async () => {
    const passkey = await db.passkey.findUnique({ where: { credentialID: input.response.id }, include: { user: true } });
    if (!passkey) throw new AuthError("AUTH_CANCELLED");
    return { passkey, ...(await verifyPasskeyAssertion(passkey, input.response, challenge.challenge)) };
  });
  // The first-factor door: an unverified address under required verification is refused as for a password, and
  // an account with two-factor on takes only a passkey that verified the person (UV), which is both factors.
  const outcome = await finishFirstFactor(ctx, passkey.user, { method: "passkey", userVerified });
  if (outcome.twoFactorRedirect) throw new AuthError("AUTH_CANCELLED"); // never: a passkey opens no attempt
  return { session: publicSession(outcome.session), user: publicUser(outcome.user) };
}

/**
 * Checks an assertion against a stored passkey and moves its counter on; AUTH_CANCELLED for any failure. Used
 * by sign-in and by step-up's "Confirm it's you" (app/auth/step-up/, which passes `requireUserVerification`
 * for an account with two-factor on).
 */
export async function verifyPasskeyAssertion(
  passkey: Passkey,
  response: AuthenticationResponseJSON,
  expectedChallenge: string,
  options: { requireUserVerification?: boolean } = {},
): Promise<{ userVerified: boolean }> {
  const { verifyAuthenticationResponse } = await webauthn();
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge,
      expectedOrigin: relyingParty.origin,
      expectedRPID: relyingParty.id,
      credential: {
        id: passkey.credentialID,
        publicKey: publicKeyFromText(passkey.publicKey),
        counter: passkey.counter,
        transports: passkey.transports ? (passkey.transports.split(",") as AuthenticatorTransport[]) : undefined,
      },
      requireUserVerification: options.requireUserVerification ?? false,
    });
  } catch {
    // Bad signature, another origin or RP ID, a counter that did not move forward (a cloned authenticator).
    throw new AuthError("AUTH_CANCELLED");
  }
  if (!verification.verified) throw new AuthError("AUTH_CANCELLED");
  // Conditional on the counter read above: of two assertions racing with one stored counter, one wins. It also
  // finds the passkey still there after its user (and credentials version) was read: a removal or a claim that
  // committed in between is refused here, and one after it moved the version the session start compares (ADR 055).
  const { count } = await db.passkey.updateMany({
    where: { id: passkey.id, counter: passkey.counter },
    data: { counter: verification.authenticationInfo.newCounter, backedUp: verification.authenticationInfo.credentialBackedUp },
  });
  if (count === 0) throw new AuthError("AUTH_CANCELLED");
  return { userVerified: verification.authenticationInfo.userVerified };
}
