// E-mail and password: sign-up and sign-in. Called by the JSON endpoints and the page actions alike.
import { newId } from "~/auth/core/crypto.server";
import { AuthError } from "~/auth/errors";
import { assertPasswordLength, CREDENTIAL_PROVIDER, hashPassword, verifyAgainstDecoy, verifyPassword } from "~/auth/account/password.server";
import { publicUser } from "~/auth/core/presenters.server";
import type { RequestContext } from "~/auth/request-context.server";
import { normalizeEmail } from "~/auth/core/email-address";
import {
  bindVerificationToBrowser,
  emailVerificationEnabled,
  emailVerificationRequired,
  sendVerificationInBackground,
  sendVerificationNow,
} from "~/auth/account/email-verification.server";
import { MAX_NAME_LENGTH } from "~/auth/schemas";
import { assertPasswordNotCompromised } from "~/auth/password-policy/check.server";
import { recordFailedSignIn } from "~/auth/security-events/record.server";
import { countingRefusals } from "~/observability/sign-ins.server";
import { metrics } from "~/observability/metrics.server";
import { findUserWithPasswordHash } from "~/auth/session/store.server";
import { absoluteUrl } from "~/auth/core/links.server";
import { finishFirstFactor, signInAnswer, startSessionForNewAccount } from "~/auth/sign-in/first-factor.server";
import { deviceIdOf, presentedDeviceHash, rememberCreatingDevice } from "~/auth/sign-in/known-device.server";
import { checkPasswordWithLockout, refuseStrangerWhileHasherBusy } from "~/auth/sign-in/password-lockout.server";
import { noteWrongPassword } from "~/auth/proof-of-work/burst.server";
import { requireProofUnderBurst } from "~/auth/proof-of-work/gate.server";
import { parseUsername, usernameTaken } from "~/auth/username/username.server";
import { db, isUniqueViolation, type User } from "~/db.server";
import { languageOfSignInPage } from "~/i18n/choose.server";
import { sendMail } from "~/email/mailer.server";
import { emails } from "~/email/templates.server";

/** Defined beside the password hashing (a leaf), so two-factor modules need not import this one. */
export { CREDENTIAL_PROVIDER };

export interface SignUpInput {
  name: string;
  email: string;
  password: string;
  image?: string | null;
  rememberMe?: boolean;
  callbackURL?: string;
  /** Server-side only: the address was already proven (an invitation link's secret), so it starts verified. */
  emailProven?: boolean;
  /** Username plugin: optional; stored lowercased, displayUsername keeps the typed form. */
  username?: string;
  displayUsername?: string;
  /** The account's language (the API's `locale`); unset, the language this sign-up was made in (issue 44). */
  locale?: string | null;
}

/** The language a new account keeps: the one asked for, else the request's (the picker, Accept-Language…). */
export const signUpLanguage = async (ctx: RequestContext, given?: string | null) => given ?? (await languageOfSignInPage(ctx.request));

export async function signUpWithEmail(ctx: RequestContext, input: SignUpInput) {
  const email = normalizeEmail(input.email);
  await requireProofUnderBurst(ctx, { email }, "sign_up"); // under a burst, before any work (ADR 060)
  assertPasswordLength(input.password);
  // Before anything is looked up: the same refusal whether or not the address has an account (issue 39 §2).
  await assertPasswordNotCompromised(input.password);
  const name = input.name.trim().slice(0, MAX_NAME_LENGTH);
  const names = input.username ? parseUsername(input.username, input.displayUsername) : null;
  if (names && (await db.user.findUnique({ where: { username: names.username }, select: { id: true } }))) throw usernameTaken();
  if (await db.user.findUnique({ where: { email }, select: { id: true } })) return answerForTakenAddress(ctx, input, email, name);
  // Anyone may sign up: a stranger's turn at the hasher (ADR 061), as for a taken address below.
  const passwordHash = await hashPassword(input.password, "stranger");
  const id = newId();
  let user: User;
  try {
    // One statement: the user and its credential account exist together or not at all.
    user = await db.user.create({
      data: {
        id,
        name,
        email,
        image: input.image || null,
        locale: await signUpLanguage(ctx, input.locale),
        emailVerified: input.emailProven === true,
        inboxProvenAt: input.emailProven === true ? new Date() : null,
        ...names,
        accounts: { create: { providerId: CREDENTIAL_PROVIDER, accountId: id, password: passwordHash } },
      },
    });
    metrics.signUp("password");
  } catch (error) {
    // Two sign-ups for one address (or username) at once: the unique index lets exactly one through.
    if (isUniqueViolation(error)) {
      const emailTaken = await db.user.findUnique({ where: { email }, select: { id: true } });
      if (names && !emailTaken) throw usernameTaken();
      return answerForTakenAddress(ctx, input, email, name, { hashed: true });
    }
    throw error;
  }
  if (emailVerificationRequired() && !user.emailVerified) {
    // No session until the address is verified; without the mail the account could never be used, so a
    // failed send undoes the sign-up and says so.
    try {
      await sendVerificationNow(user, input.callbackURL);
    } catch (error) {
      await db.user.delete({ where: { id: user.id } }).catch(() => {});
      throw error;
    }
    bindVerificationToBrowser(ctx, user.id);
    await rememberCreatingDevice(ctx, user.id); // its first sign-in here, once verified, is not from a new device
    return { token: null, user: publicUser(user) };
  }
  if (!user.emailVerified) {
    if (emailVerificationEnabled()) sendVerificationInBackground(user, input.callbackURL);
    // Whatever the verification mode: the person who signed up, proving the inbox in this browser, keeps what
    // they set up (docs/decisions/028-claim-on-proof.md).
    bindVerificationToBrowser(ctx, user.id);
  }
  const { session } = await startSessionForNewAccount(ctx, user, { rememberMe: input.rememberMe, method: "password" });
  return { token: session.token as string | null, user: publicUser(user) };
}

/**
 * Sign-up with an address that already has an account. When verification is required, the answer is the one a
 * new address gets (after the same password hashing and one mail, sent to the owner instead of a link), so
 * sign-up cannot be used to find out who has an account. Otherwise a new account would be signed in at once,
 * so the conflict can only be reported (Better Auth does the same).
 */
async function answerForTakenAddress(
  ctx: RequestContext,
  input: SignUpInput,
  email: string,
  name: string,
  work: { hashed?: boolean } = {},
) {
  if (!emailVerificationRequired()) throw new AuthError("USER_ALREADY_EXISTS");
  if (!work.hashed) await hashPassword(input.password, "stranger");
  await sendMail(emails.signUpAttempt(email, absoluteUrl(`/sign-in?${new URLSearchParams({ email })}`)));
  const now = new Date();
  const lookalike: User = {
    id: newId(),
    name,
    email,
    emailVerified: false,
    image: input.image || null,
    username: null,
    displayUsername: null,
    twoFactorEnabled: false,
    inboxProvenAt: null,
    role: "user",
    banned: false,
    banReason: null,
    banExpires: null,
    createdAt: now,
    updatedAt: now,
    credentialsVersion: 0,
    locale: await signUpLanguage(ctx, input.locale),
  };
  bindVerificationToBrowser(ctx, lookalike.id);
  deviceIdOf(ctx); // the same cookies as a real sign-up's (which remembers this browser as the account's first device)
  return { token: null, user: publicUser(lookalike) };
}

export interface SignInInput {
  email: string;
  password: string;
  rememberMe?: boolean;
  callbackURL?: string;
}

/**
 * Checks the password; every failure is the same 401 after the same scrypt work. A wrong password for an
 * account with one is recorded for its owner after the answer (`recordFailedSignIn`).
 */
export async function verifyCredentials(ctx: RequestContext, typedEmail: string, password: string): Promise<User> {
  return countingRefusals("password", () => checkCredentials(ctx, typedEmail, password));
}

async function checkCredentials(ctx: RequestContext, typedEmail: string, password: string): Promise<User> {
  const email = normalizeEmail(typedEmail);
  refuseStrangerWhileHasherBusy(ctx); // before the look-up: the same for every identifier (ADR 061)
  const found = await findUserWithPasswordHash(email, CREDENTIAL_PROVIDER, presentedDeviceHash(ctx));
  const hash = found?.passwordHash;
  // Counted per account (or per unknown address) before compared (issue 39 §1, ADR 057).
  const subject = found ? { userId: found.user.id, knownDevice: found.knownDevice } : { identifier: `email:${email}` };
  await requireProofUnderBurst(ctx, subject, "password"); // under a burst, before the lock (ADR 060)
  const { right: valid, knownDevice } = await checkPasswordWithLockout(ctx, subject, "password", () =>
    hash ? verifyPassword(password, hash) : verifyAgainstDecoy(password).then(() => false),
  );
  if (!valid) noteWrongPassword(ctx.clientIp, subject, knownDevice);
  if (found && hash && !valid) recordFailedSignIn(ctx, { userId: found.user.id }, "password", { knownDevice });
  if (!found || !valid) throw new AuthError("INVALID_EMAIL_OR_PASSWORD");
  return found.user;
}

/** POST /sign-in/email: the session, or the second step, or EMAIL_NOT_VERIFIED (the first-factor door decides). */
export async function signInWithEmail(ctx: RequestContext, input: SignInInput) {
  const user = await verifyCredentials(ctx, input.email, input.password);
  const outcome = await finishFirstFactor(ctx, user, { method: "password", rememberMe: input.rememberMe, callbackURL: input.callbackURL });
  return signInAnswer(outcome, input.callbackURL);
}
