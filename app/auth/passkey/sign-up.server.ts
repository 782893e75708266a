// Sign-up with a passkey alone (docs/decisions/017-passkey-sign-up.md): name and e-mail → a code mailed to the
// address → registration options → the new passkey verified → the account exists, verified, with no password.
// The code proves the inbox before any account exists, so nobody can pre-register another person's address with
// their own passkey. It is bound to the browser that asked (a signed cookie), so eight characters suffice.
import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import { clearCookie, cookieName, readSignedCookie, setSignedCookie } from "~/auth/cookies.server";
import { newId, randomToken, safeEqual, sha256Hex } from "~/auth/crypto.server";
import { normalizeEmail } from "~/auth/email-address";
import { AuthError } from "~/auth/errors";
import { takeChallenge } from "~/auth/passkey/challenge.server";
import { passkeySignUpMails } from "~/auth/passkey/mail.server";
import { registrationOptions, verifyNewCredential } from "~/auth/passkey/registration.server";
import { SIGN_UP_CODE_LENGTH } from "~/auth/passkey/schemas";
import { publicSession, publicUser } from "~/auth/presenters.server";
import type { RequestContext } from "~/auth/request-context.server";
import { MAX_NAME_LENGTH } from "~/auth/schemas";
import { startSession } from "~/auth/session.server";
import { afterResponse, consumeToken, mailToken, peekToken } from "~/auth/verification.server";
import { db, isUniqueViolation } from "~/db.server";
import { sendMail } from "~/email/mailer.server";

/** Letters and digits people cannot confuse (no I, O, 0, 1): 8 of 32 symbols are 40 bits. */
export const SIGN_UP_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
export const SIGN_UP_CODE_TTL_SECONDS = 10 * 60;

const COOKIE = cookieName("passkey_sign_up");
const COOKIE_PURPOSE = "passkey_sign_up";

interface SignUpPayload {
  userId: null;
  email: string;
  name: string;
}

const attemptOf = (ctx: RequestContext) => readSignedCookie(ctx.request, COOKIE, COOKIE_PURPOSE);

/**
 * POST /passkey/sign-up/send-code {name, email} → {status: true}, the same answer (and the same work before it)
 * whether or not the address has an account; an existing account gets a "you already have one" mail instead.
 */
export async function sendSignUpCode(ctx: RequestContext, input: { name: string; email: string }) {
  const email = normalizeEmail(input.email);
  const name = input.name.trim().slice(0, MAX_NAME_LENGTH);
  const attempt = attemptOf(ctx) ?? randomToken(32);
  setSignedCookie(ctx, COOKIE, attempt, COOKIE_PURPOSE, SIGN_UP_CODE_TTL_SECONDS);
  const exists = await db.user.findUnique({ where: { email }, select: { id: true } });
  // After the answer, so neither it nor its timing depends on SMTP or on which mail goes out.
  afterResponse(() =>
    exists
      ? sendMail(passkeySignUpMails.alreadyRegistered(email))
      : mailToken<SignUpPayload>(
          "passkey-sign-up",
          { userId: null, email, name },
          { ttlSeconds: SIGN_UP_CODE_TTL_SECONDS, length: SIGN_UP_CODE_LENGTH, alphabet: SIGN_UP_CODE_ALPHABET, bindTo: attempt },
          (code) => passkeySignUpMails.code(email, code, SIGN_UP_CODE_TTL_SECONDS),
        ),
  );
  return { status: true as const };
}

async function readCode(ctx: RequestContext, code: string): Promise<{ attempt: string; payload: SignUpPayload }> {
  const attempt = attemptOf(ctx);
  const payload = attempt ? await peekToken<SignUpPayload>("passkey-sign-up", code, { bindTo: attempt }) : null;
  if (!attempt || !payload) throw new AuthError("INVALID_CODE");
  return { attempt, payload };
}

/** POST /passkey/sign-up/generate-register-options {code}: creation options for the address the code proved. */
export async function signUpRegisterOptions(ctx: RequestContext, input: { code: string }) {
  const { payload } = await readCode(ctx, input.code);
  if (await db.user.findUnique({ where: { email: payload.email }, select: { id: true } })) throw new AuthError("USER_ALREADY_EXISTS");
  return registrationOptions(ctx, { email: payload.email, name: payload.name, exclude: [] }, { userId: null, kind: "sign-up", codeHash: sha256Hex(input.code) });
}

/**
 * POST /passkey/sign-up/verify-registration {code, response, name?} → {session, user}: the code is used up only
 * once the passkey verified, so a cancelled ceremony can be retried with the same code.
 */
export async function verifySignUp(ctx: RequestContext, input: { code: string; response: RegistrationResponseJSON; name?: string }) {
  const challenge = await takeChallenge(ctx, "sign-up");
  if (!challenge.codeHash || !safeEqual(challenge.codeHash, sha256Hex(input.code))) throw new AuthError("CHALLENGE_NOT_FOUND");
  const { attempt } = await readCode(ctx, input.code);
  const passkey = await verifyNewCredential(input.response, challenge.challenge, input.name);
  const payload = await consumeToken<SignUpPayload>("passkey-sign-up", input.code, { bindTo: attempt }).catch((error) => {
    throw error instanceof AuthError ? new AuthError("INVALID_CODE") : error;
  });
  let user;
  try {
    // One statement: the account and its only way in exist together or not at all.
    user = await db.user.create({
      data: { id: newId(), name: payload.name, email: payload.email, emailVerified: true, inboxProvenAt: new Date(), passkeys: { create: passkey } },
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      const taken = await db.user.findUnique({ where: { email: payload.email }, select: { id: true } });
      throw new AuthError(taken ? "USER_ALREADY_EXISTS" : "PREVIOUSLY_REGISTERED");
    }
    throw error;
  }
  clearCookie(ctx, COOKIE);
  const { session } = await startSession(ctx, user);
  return { session: publicSession(session), user: publicUser(user) };
}
