// Registering a passkey: options for the browser, then the authenticator's answer verified and stored. Used by a
// signed-in user adding a passkey and, through `verifyNewCredential`, by passkey sign-up.
import { randomBytes } from "node:crypto";
import type { AuthenticatorTransport, RegistrationResponseJSON } from "@simplewebauthn/server";
import { recognisedDevice } from "~/auth/core/device";
import { AuthError } from "~/auth/errors";
import { rememberChallenge, takeChallenge, type ChallengePayload } from "~/auth/passkey/challenge.server";
import { cleanPasskeyName, publicPasskey } from "~/auth/passkey/passkeys.server";
import { CEREMONY_TIMEOUT_SECONDS, relyingParty, WEBAUTHN_USER_ID_BYTES } from "~/auth/passkey/relying-party.server";
import { publicKeyToText, webauthn } from "~/auth/passkey/webauthn.server";
import { requireRecentVerification } from "~/auth/step-up/guard.server";
import { recordSecurityEvent } from "~/auth/security-events/record.server";
import type { RequestContext } from "~/auth/request-context.server";
import type { SessionWithUser } from "~/auth/session/sessions.server";
import { db, isUniqueViolation, type Prisma } from "~/db.server";

interface OptionsFor {
  email: string;
  name: string;
  /** Credentials the authenticator must not register again (the user's own). */
  exclude: Array<{ credentialID: string; transports: string | null }>;
  authenticatorAttachment?: "platform" | "cross-platform";
}

/** The creation options, with the challenge remembered for this browser. */
export async function registrationOptions(ctx: RequestContext, who: OptionsFor, challenge: Omit<ChallengePayload, "challenge">) {
  const { generateRegistrationOptions } = await webauthn();
  const options = await generateRegistrationOptions({
    rpName: relyingParty.name,
    rpID: relyingParty.id,
    // A fresh random handle per registration: it reveals nothing and needs no column (a passkey is found by its
    // credential id). Spec §5: 1 to 64 bytes.
    userID: randomBytes(WEBAUTHN_USER_ID_BYTES),
    userName: who.email,
    userDisplayName: who.name,
    timeout: CEREMONY_TIMEOUT_SECONDS * 1000,
    attestationType: "none",
    excludeCredentials: who.exclude.map((p) => ({ id: p.credentialID, transports: splitTransports(p.transports) })),
    authenticatorSelection: {
      residentKey: "preferred",
      userVerification: "preferred",
      ...(who.authenticatorAttachment ? { authenticatorAttachment: who.authenticatorAttachment } : {}),
    },
  });
  await rememberChallenge(ctx, { ...challenge, challenge: options.challenge });
  return options;
}

/** GET /passkey/generate-register-options for the signed-in user, whose sign-in must be recent (ADR 030). */
export async function generateRegisterOptions(
  ctx: RequestContext,
  current: SessionWithUser,
  query: { authenticatorAttachment?: "platform" | "cross-platform"; name?: string } = {},
) {
  await requireRecentVerification(ctx, current, "/passkey/generate-register-options");
  const exclude = await db.passkey.findMany({ where: { userId: current.user.id }, select: { credentialID: true, transports: true } });
  return registrationOptions(
    ctx,
    { email: current.user.email, name: current.user.name, exclude, authenticatorAttachment: query.authenticatorAttachment },
    { userId: current.user.id, kind: "register", ...(query.name ? { name: query.name } : {}) },
  );
}

const splitTransports = (value: string | null) => (value ? (value.split(",") as AuthenticatorTransport[]) : undefined);

/**
 * The authenticator's answer checked against the challenge, origin and RP ID: the new credential's row data.
 * With no name given, the passkey is named after the device that created it ("Chrome on Linux"), from the
 * registering request's User-Agent, so the list does not fill with "Unnamed passkey"s.
 */
export async function verifyNewCredential(
  response: RegistrationResponseJSON,
  expectedChallenge: string,
  name: string | null | undefined,
  userAgent: string | null,
) {
  const { verifyRegistrationResponse } = await webauthn();
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response,
      expectedChallenge,
      expectedOrigin: relyingParty.origin,
      expectedRPID: relyingParty.id,
      requireUserVerification: false,
    });
  } catch {
    throw new AuthError("REGISTRATION_CANCELLED");
  }
  if (!verification.verified) throw new AuthError("REGISTRATION_CANCELLED");
  const info = verification.registrationInfo;
  const credentialID = info.credential.id;
  if (await db.passkey.findUnique({ where: { credentialID }, select: { id: true } })) throw new AuthError("PREVIOUSLY_REGISTERED");
  return {
    name: cleanPasskeyName(name) ?? cleanPasskeyName(recognisedDevice(userAgent)),
    credentialID,
    publicKey: publicKeyToText(info.credential.publicKey),
    counter: info.credential.counter,
    deviceType: info.credentialDeviceType,
    backedUp: info.credentialBackedUp,
    transports: info.credential.transports?.join(",") || null,
    aaguid: info.aaguid,
  } satisfies Omit<Prisma.PasskeyUncheckedCreateInput, "userId">;
}

/**
 * POST /passkey/verify-registration: the passkey is stored for the user who asked for the options, if their
 * sign-in is still recent; the owner is mailed (ADR 030).
 */
export async function verifyRegistration(
  ctx: RequestContext,
  current: SessionWithUser,
  input: { response: RegistrationResponseJSON; name?: string },
) {
  await requireRecentVerification(ctx, current, "/passkey/verify-registration");
  const challenge = await takeChallenge(ctx, "register");
  if (challenge.userId !== current.user.id) throw new AuthError("CHALLENGE_NOT_FOUND");
  const data = await verifyNewCredential(input.response, challenge.challenge, cleanPasskeyName(input.name) ?? challenge.name, ctx.userAgent);
  try {
    // The owner is mailed once the passkey and its event have committed (a new way in, ADR 030 and 048).
    const passkey = await db.$transaction(async (tx) => {
      const passkey = await tx.passkey.create({ data: { ...data, userId: current.user.id } });
      await recordSecurityEvent(tx, { userId: current.user.id, type: "passkey_added", ctx, sessionId: current.session.id, details: { passkeyId: passkey.id, name: passkey.name } });
      return passkey;
    });
    return publicPasskey(passkey);
  } catch (error) {
    // The same authenticator answering twice at once: the unique credential id lets one through.
    if (isUniqueViolation(error)) throw new AuthError("PREVIOUSLY_REGISTERED");
    throw error;
  }
}
