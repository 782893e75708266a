// Sign-up with a passkey alone (docs/decisions/017-passkey-sign-up.md): name and e-mail → a code mailed to the
// address → registration options → the new passkey verified → the account exists, verified, with no password.
// The code proves the inbox before any account exists, so nobody can pre-register another person's address with
// their own passkey. It is bound to the browser that asked (a signed cookie): it is an entry found by that
// cookie's secret, holding the code's HMAC, and each guess is counted before it is compared, five at most
// (docs/decisions/029-atomic-guess-counting.md), and out of the address's budget of wrong guesses shared with its
// e-mailed codes: so six digits suffice, like every other code people are sent (ADR 037).
import { languageOfSignInPage } from "~/i18n/choose.server";
import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import { clearCookie, cookieName, readSignedCookie, setSignedCookie } from "~/auth/core/cookies.server";
import { hmacBase64Url, newId, randomToken, safeEqual } from "~/auth/core/crypto.server";
import { normalizeEmail } from "~/auth/core/email-address";
import { normalizeTypedCode } from "~/auth/core/typed-code";
import { AuthError } from "~/auth/errors";
import { takeChallenge } from "~/auth/passkey/challenge.server";
import { passkeySignUpMails } from "~/auth/passkey/mail.server";
import { registrationOptions, verifyNewCredential } from "~/auth/passkey/registration.server";
import { SIGN_UP_CODE_LENGTH } from "~/auth/passkey/schemas";
import { publicSession, publicUser } from "~/auth/core/presenters.server";
import type { RequestContext } from "~/auth/request-context.server";
import { MAX_NAME_LENGTH } from "~/auth/schemas";
import { startSessionForNewAccount } from "~/auth/sign-in/first-factor.server";
import { guessWithinBudget } from "~/auth/rate-limit/guess-budget.server";
import { checkCode, closeEntry, openEntry, randomDigits, readEntry } from "~/auth/verification.server";
import { afterResponse } from "~/background-work.server";
import { db, isUniqueViolation } from "~/db.server";
import { sendMail } from "~/email/mailer.server";
import { metrics } from "~/observability/metrics.server";

export const SIGN_UP_CODE_TTL_SECONDS = 10 * 60;
/** Wrong guesses a sign-up code survives: the fifth ends it (each counted before it is compared). */
export const SIGN_UP_CODE_MAX_WRONG_GUESSES = 5;
const CODE_PURPOSE = "passkey-sign-up-code";

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
  afterResponse(() => (exists ? sendMail(passkeySignUpMails.alreadyRegistered(email)) : mailSignUpCode(attempt, { userId: null, email, name })));
  return { status: true as const };
}

/** A new code for this browser's sign-up (replacing any earlier one), mailed now; withdrawn if the mail fails. */
async function mailSignUpCode(attempt: string, payload: SignUpPayload): Promise<void> {
  const code = randomDigits(SIGN_UP_CODE_LENGTH);
  await openEntry(CODE_PURPOSE, attempt, payload, { ttlSeconds: SIGN_UP_CODE_TTL_SECONDS, code });
  try {
    await sendMail(passkeySignUpMails.code(payload.email, code, SIGN_UP_CODE_TTL_SECONDS));
  } catch (error) {
    await closeEntry(CODE_PURPOSE, attempt).catch(() => {});
    throw error;
  }
}

/**
 * Checks the code against this browser's sign-up: counted first, against the code and against the address's
 * budget of wrong guesses (ADR 029; 429 once spent), then compared; `keep` leaves it usable (a right answer then
 * costs nothing), otherwise a right code is used up by exactly one of concurrent requests.
 */
async function checkSignUpCode(ctx: RequestContext, code: string, keep: boolean): Promise<SignUpPayload> {
  const attempt = attemptOf(ctx);
  const entry = attempt ? await readEntry<SignUpPayload>(CODE_PURPOSE, attempt) : null;
  if (!attempt || !entry) throw new AuthError("INVALID_CODE");
  const check = await guessWithinBudget(
    { email: entry.payload.email },
    () => checkCode<SignUpPayload>(CODE_PURPOSE, attempt, code, { maxFailures: SIGN_UP_CODE_MAX_WRONG_GUESSES, keep }),
    (outcome) => outcome.ok,
  );
  if (!check.ok) throw new AuthError("INVALID_CODE");
  return check.payload;
}

/** What a ceremony's challenge remembers of the code it goes with: an HMAC, not the 40-bit code's bare hash. */
const challengeCodeHash = (code: string) => hmacBase64Url(normalizeTypedCode(code), "passkey sign-up challenge code");

/** POST /passkey/sign-up/generate-register-options {code}: creation options for the address the code proved. */
export async function signUpRegisterOptions(ctx: RequestContext, input: { code: string }) {
  const payload = await checkSignUpCode(ctx, input.code, true);
  if (await db.user.findUnique({ where: { email: payload.email }, select: { id: true } })) throw new AuthError("USER_ALREADY_EXISTS");
  return registrationOptions(ctx, { email: payload.email, name: payload.name, exclude: [] }, { userId: null, kind: "sign-up", codeHash: challengeCodeHash(input.code) });
}

/**
 * POST /passkey/sign-up/verify-registration {code, response, name?} → {session, user}: the code is used up only
 * once the passkey verified, so a cancelled ceremony can be retried with the same code.
 */
export async function verifySignUp(ctx: RequestContext, input: { code: string; response: RegistrationResponseJSON; name?: string }) {
  const challenge = await takeChallenge(ctx, "sign-up");
  if (!challenge.codeHash || !safeEqual(challenge.codeHash, challengeCodeHash(input.code))) throw new AuthError("CHALLENGE_NOT_FOUND");
  await checkSignUpCode(ctx, input.code, true);
  const passkey = await verifyNewCredential(input.response, challenge.challenge, input.name, ctx.userAgent);
  const payload = await checkSignUpCode(ctx, input.code, false);
  let user;
  try {
    // One statement: the account and its only way in exist together or not at all.
    user = await db.user.create({
      data: { id: newId(), name: payload.name, email: payload.email, emailVerified: true, inboxProvenAt: new Date(), locale: await languageOfSignInPage(ctx.request), passkeys: { create: passkey } },
    });
    metrics.signUp("passkey");
  } catch (error) {
    if (isUniqueViolation(error)) {
      const taken = await db.user.findUnique({ where: { email: payload.email }, select: { id: true } });
      throw new AuthError(taken ? "USER_ALREADY_EXISTS" : "PREVIOUSLY_REGISTERED");
    }
    throw error;
  }
  clearCookie(ctx, COOKIE);
  const { session } = await startSessionForNewAccount(ctx, user, { method: "passkey" });
  return { session: publicSession(session), user: publicUser(user) };
}
