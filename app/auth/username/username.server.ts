// Usernames: the rules, availability and sign-in by username (changing it is POST /update-user). Stored lowercased and unique (the
// database's unique index decides races); displayUsername keeps the form the person typed.
import { AuthError } from "~/auth/errors";
import { CREDENTIAL_PROVIDER, verifyAgainstDecoy, verifyPassword } from "~/auth/account/password.server";
import type { RequestContext } from "~/auth/request-context.server";
import { finishFirstFactor, signInAnswer } from "~/auth/sign-in/first-factor.server";
import { checkPasswordWithLockout, refuseStrangerWhileHasherBusy } from "~/auth/sign-in/password-lockout.server";
import { noteWrongPassword } from "~/auth/proof-of-work/burst.server";
import { requireProofUnderBurst } from "~/auth/proof-of-work/gate.server";
import { usernameProblem } from "~/auth/username/schemas";
import { recordFailedSignIn } from "~/auth/security-events/record.server";
import { countingRefusals } from "~/observability/sign-ins.server";
import { db, type User } from "~/db.server";

export interface UsernameNames {
  username: string;
  displayUsername: string;
}

/** Checks the typed username and gives its stored (lowercased) and displayed forms; 400 when malformed. */
export function parseUsername(typed: string, display?: string): UsernameNames {
  const trimmed = typed.trim();
  const problem = usernameProblem(trimmed);
  if (problem) throw new AuthError(problem);
  return { username: trimmed.toLowerCase(), displayUsername: display?.trim() || trimmed };
}

/** POST /is-username-available. */
export async function isUsernameAvailable(typed: string): Promise<{ available: boolean }> {
  const { username } = parseUsername(typed);
  const found = await db.user.findUnique({ where: { username }, select: { id: true } });
  return { available: found === null };
}

export function usernameTaken(): AuthError {
  return new AuthError("USERNAME_IS_ALREADY_TAKEN_PLEASE_TRY_ANOTHER");
}

/** Checks the password of the user with this username; every failure is the same 401 after the same work. */
export async function verifyUsernameCredentials(ctx: RequestContext, typed: string, password: string): Promise<User> {
  return countingRefusals("username", () => checkUsernameCredentials(ctx, typed, password));
}

async function checkUsernameCredentials(ctx: RequestContext, typed: string, password: string): Promise<User> {
  const { username } = parseUsername(typed);
  refuseStrangerWhileHasherBusy(ctx); // before the look-up: the same for every identifier (ADR 061)
  const user = await db.user.findUnique({
    where: { username },
    include: { accounts: { where: { providerId: CREDENTIAL_PROVIDER }, select: { password: true } } },
  });
  const hash = user?.accounts[0]?.password;
  // The account's one budget, whichever identifier was typed (issue 39 §1, ADR 057).
  const subject = user ? { userId: user.id } : { identifier: `username:${username}` };
  await requireProofUnderBurst(ctx, subject, "username"); // under a burst, before the lock (ADR 060)
  const { right: valid, knownDevice } = await checkPasswordWithLockout(ctx, subject, "username", () =>
    hash ? verifyPassword(password, hash) : verifyAgainstDecoy(password).then(() => false),
  );
  if (!valid) noteWrongPassword(ctx.clientIp, subject, knownDevice);
  if (user && hash && !valid) recordFailedSignIn(ctx, { userId: user.id }, "username", { knownDevice });
  if (!user || !valid) throw new AuthError("INVALID_USERNAME_OR_PASSWORD");
  const { accounts: _accounts, ...plainUser } = user;
  return plainUser;
}

/** POST /sign-in/username: answers like /sign-in/email, through the same first-factor door. */
export async function signInWithUsername(
  ctx: RequestContext,
  input: { username: string; password: string; rememberMe?: boolean; callbackURL?: string },
) {
  const user = await verifyUsernameCredentials(ctx, input.username, input.password);
  const outcome = await finishFirstFactor(ctx, user, { method: "username", rememberMe: input.rememberMe, callbackURL: input.callbackURL });
  return signInAnswer(outcome, input.callbackURL);
}
