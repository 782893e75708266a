// E-mail and password: sign-up and sign-in. Called by the JSON endpoints and the page actions alike.
import { newId } from "~/auth/crypto.server";
import { AuthError } from "~/auth/errors";
import { assertPasswordLength, hashPassword, verifyAgainstDecoy, verifyPassword } from "~/auth/password.server";
import { publicUser } from "~/auth/presenters.server";
import type { RequestContext } from "~/auth/request-context.server";
import { normalizeEmail } from "~/auth/email-address";
import {
  emailVerificationEnabled,
  emailVerificationRequired,
  sendVerificationInBackground,
  sendVerificationNow,
} from "~/auth/email-verification.server";
import { MAX_NAME_LENGTH } from "~/auth/schemas";
import { startSession } from "~/auth/session.server";
import { afterFirstFactor, type FirstFactorOutcome } from "~/auth/two-factor/gate.server";
import { parseUsername, usernameTaken } from "~/auth/username/username.server";
import { db, isUniqueViolation, type User } from "~/db.server";

export const CREDENTIAL_PROVIDER = "credential";

export interface SignUpInput {
  name: string;
  email: string;
  password: string;
  image?: string | null;
  rememberMe?: boolean;
  callbackURL?: string;
  /** Username plugin: optional; stored lowercased, displayUsername keeps the typed form. */
  username?: string;
  displayUsername?: string;
}

export async function signUpWithEmail(ctx: RequestContext, input: SignUpInput) {
  const email = normalizeEmail(input.email);
  assertPasswordLength(input.password);
  const name = input.name.trim().slice(0, MAX_NAME_LENGTH);
  const names = input.username ? parseUsername(input.username, input.displayUsername) : null;
  if (await db.user.findUnique({ where: { email }, select: { id: true } })) throw new AuthError("USER_ALREADY_EXISTS");
  if (names && (await db.user.findUnique({ where: { username: names.username }, select: { id: true } }))) throw usernameTaken();
  const passwordHash = await hashPassword(input.password);
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
        ...names,
        accounts: { create: { providerId: CREDENTIAL_PROVIDER, accountId: id, password: passwordHash } },
      },
    });
  } catch (error) {
    // Two sign-ups for one address (or username) at once: the unique index lets exactly one through.
    if (isUniqueViolation(error)) {
      const emailTaken = await db.user.findUnique({ where: { email }, select: { id: true } });
      throw names && !emailTaken ? usernameTaken() : new AuthError("USER_ALREADY_EXISTS");
    }
    throw error;
  }
  if (emailVerificationRequired()) {
    // No session until the address is verified; without the mail the account could never be used, so a
    // failed send undoes the sign-up and says so.
    try {
      await sendVerificationNow(user, input.callbackURL);
    } catch (error) {
      await db.user.delete({ where: { id: user.id } }).catch(() => {});
      throw error;
    }
    return { token: null, user: publicUser(user) };
  }
  if (emailVerificationEnabled()) sendVerificationInBackground(user, input.callbackURL);
  const { session } = await startSession(ctx, user, { rememberMe: input.rememberMe });
  return { token: session.token as string | null, user: publicUser(user) };
}

export interface SignInInput {
  email: string;
  password: string;
  rememberMe?: boolean;
  callbackURL?: string;
}

/** Checks the password; every failure is the same 401 after the same scrypt work. */
export async function verifyCredentials(email: string, password: string): Promise<User> {
  const normalized = normalizeEmail(email);
  const user = await db.user.findUnique({
    where: { email: normalized },
    include: { accounts: { where: { providerId: CREDENTIAL_PROVIDER }, select: { password: true } } },
  });
  const hash = user?.accounts[0]?.password;
  const valid = hash ? await verifyPassword(password, hash) : await verifyAgainstDecoy(password);
  if (!user || !valid) throw new AuthError("INVALID_EMAIL_OR_PASSWORD");
  const { accounts: _accounts, ...plainUser } = user;
  return plainUser;
}

export async function signInWithEmail(ctx: RequestContext, input: SignInInput) {
  const user = await verifyCredentials(input.email, input.password);
  if (emailVerificationRequired() && !user.emailVerified) {
    // Only after the password matched, so this reveals nothing to someone who does not know it.
    sendVerificationInBackground(user, input.callbackURL);
    throw new AuthError("EMAIL_NOT_VERIFIED");
  }
  return signInAnswer(await afterFirstFactor(ctx, user, { rememberMe: input.rememberMe }), input.callbackURL);
}

/** `/sign-in/*`'s answer: the session, or `{twoFactorRedirect: true}` when a second factor is due. */
export function signInAnswer(outcome: FirstFactorOutcome, callbackURL: string | undefined) {
  if (outcome.twoFactorRedirect) return outcome;
  return { redirect: Boolean(callbackURL), token: outcome.session.token, url: callbackURL, user: publicUser(outcome.user) };
}
