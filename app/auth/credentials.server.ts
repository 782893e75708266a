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
import { db, isUniqueViolation, type User } from "~/db.server";

export const CREDENTIAL_PROVIDER = "credential";

export interface SignUpInput {
  name: string;
  email: string;
  password: string;
  image?: string | null;
  rememberMe?: boolean;
  callbackURL?: string;
  /** Server-side only: the address was already proven (an invitation link's secret), so it starts verified. */
  emailProven?: boolean;
}

export async function signUpWithEmail(ctx: RequestContext, input: SignUpInput) {
  const email = normalizeEmail(input.email);
  assertPasswordLength(input.password);
  const name = input.name.trim().slice(0, MAX_NAME_LENGTH);
  if (await db.user.findUnique({ where: { email }, select: { id: true } })) throw new AuthError("USER_ALREADY_EXISTS");
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
        emailVerified: input.emailProven === true,
        accounts: { create: { providerId: CREDENTIAL_PROVIDER, accountId: id, password: passwordHash } },
      },
    });
  } catch (error) {
    // Two sign-ups for one address at once: the unique index lets exactly one through.
    if (isUniqueViolation(error)) throw new AuthError("USER_ALREADY_EXISTS");
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
    return { token: null, user: publicUser(user) };
  }
  if (emailVerificationEnabled() && !user.emailVerified) sendVerificationInBackground(user, input.callbackURL);
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
  const { session } = await startSession(ctx, user, { rememberMe: input.rememberMe });
  return { redirect: Boolean(input.callbackURL), token: session.token, url: input.callbackURL, user: publicUser(user) };
}
