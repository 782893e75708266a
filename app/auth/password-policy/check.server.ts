// The breached-password check (issue 39 §2, NIST SP 800-63B §5.1.1.2; docs/decisions/056-breached-passwords.md).
// Every flow that sets a password calls it after the length rules and before hashing: sign-up, change-password,
// reset-password (link and e-mailed code), set-password, admin create-user and set-user-password. A refusal is
// Better Auth's 400 PASSWORD_COMPROMISED and changes nothing; with an account, `password_rejected` is recorded.
import { AuthError } from "~/auth/errors";
import { breachedList, isListed } from "~/auth/password-policy/breached-list.server";
import { lookUpRange } from "~/auth/password-policy/range-lookup.server";
import type { RequestContext } from "~/auth/request-context.server";
import { recordSecurityEvent } from "~/auth/security-events/record.server";
import { db } from "~/db.server";
import { env } from "~/env.server";

/** The flows `password_rejected` names (issue 39's exact strings). */
export type PasswordFlow = "change" | "reset" | "set" | "admin";

/** The account a refused password was meant for, when there is one. */
export interface RejectedFor {
  ctx: RequestContext;
  userId: string;
  flow: PasswordFlow;
  sessionId?: string | null;
  /** The admin who chose it, for the admin flows. */
  actorUserId?: string | null;
}

const checking = () => env.AUTH_PASSWORD_BLOCKLIST === "on";

/**
 * Whether the password is breached or common: the offline list first (as typed and lower-cased); when
 * AUTH_PASSWORD_RANGE_URL is set and the list does not have it, the range lookup. A failed lookup is logged on one
 * line (no password, no hash, no prefix) and the list's answer stands: never a 5xx.
 */
export async function isPasswordCompromised(password: string): Promise<boolean> {
  if (!checking()) return false;
  if (isListed(await breachedList(env.PASSWORD_MIN_LENGTH), password)) return true;
  const rangeUrl = env.AUTH_PASSWORD_RANGE_URL;
  if (!rangeUrl) return false;
  const outcome = await lookUpRange(rangeUrl, password);
  if (outcome.result === "failed") {
    console.warn(`[latchkey] password range lookup at ${new URL(rangeUrl).origin} failed (${outcome.reason}): the offline list alone decided`);
    return false;
  }
  return outcome.result === "breached";
}

/** Records the refusal on the account (when there is one) and refuses. */
export async function refuseCompromisedPassword(account?: RejectedFor): Promise<never> {
  if (account) {
    await recordSecurityEvent(db, {
      userId: account.userId,
      type: "password_rejected",
      ctx: account.ctx,
      sessionId: account.sessionId ?? null,
      actorUserId: account.actorUserId ?? null,
      details: { reason: "compromised", flow: account.flow },
    });
  }
  throw new AuthError("PASSWORD_COMPROMISED");
}

/** Refuses a breached or common password (400 PASSWORD_COMPROMISED); call after the length rules, before hashing. */
export async function assertPasswordNotCompromised(password: string, account?: RejectedFor): Promise<void> {
  if (await isPasswordCompromised(password)) await refuseCompromisedPassword(account);
}

/**
 * Start-up (once the server listens): reads the list off the request path and says once what it cost. A failure
 * is logged; the first check reads it again (and fails that request if it still cannot).
 */
export function preloadBreachedList(): void {
  if (!checking()) return;
  const started = performance.now();
  breachedList(env.PASSWORD_MIN_LENGTH)
    .then((list) => {
      const ms = Math.round(performance.now() - started);
      const mb = (list.hashes.byteLength / 1024 / 1024).toFixed(2);
      console.log(`[latchkey] breached-password list: ${list.entriesKept} of ${list.entriesRead} passwords (${list.minLength}+ characters), ${mb} MB, read in ${ms} ms`);
    })
    .catch((error) => console.error("[latchkey] the breached-password list could not be read:", (error as Error).message));
}
