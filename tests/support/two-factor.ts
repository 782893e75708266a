// Two-factor helpers for tests: codes computed from the totpURI's secret with otpauth, as an app would.
import { TOTP, URI } from "otpauth";
import type { ApiClient } from "./client";
import { PASSWORD } from "./client";

const PERIOD = 30;

/** A sign-in's answer when the second step is due (Better Auth 1.7): the authenticator app alone (ADR 027). */
export const TWO_FACTOR_REDIRECT = { twoFactorRedirect: true, twoFactorMethods: ["totp"] };
/** The same when the user chose codes by e-mail and the first factor did not rest on the inbox. */
export const TWO_FACTOR_REDIRECT_WITH_OTP = { twoFactorRedirect: true, twoFactorMethods: ["totp", "otp"] };

/** Turns the e-mailed second factor on (or off) for the signed-in client. */
export async function chooseEmailedCode(client: ApiClient, enabled = true, password = PASSWORD) {
  const response = await client.post("/api/auth/two-factor/set-otp", { password, enabled });
  if (response.status !== 200) throw new Error(`set-otp failed: ${response.status} ${response.text}`);
}

export function totpFrom(totpURI: string): TOTP {
  const parsed = URI.parse(totpURI);
  if (!(parsed instanceof TOTP)) throw new Error(`not a TOTP URI: ${totpURI}`);
  return parsed;
}

/** Waits, if needed, until a fresh time step has most of its 30 seconds left (for tests naming exact steps). */
export async function atStartOfStep(neededSeconds = 12): Promise<void> {
  const into = (Date.now() / 1000) % PERIOD;
  if (into > PERIOD - neededSeconds) await new Promise((resolve) => setTimeout(resolve, (PERIOD - into) * 1000 + 200));
}

export const currentStep = () => Math.floor(Date.now() / 1000 / PERIOD);

/** The code of the step `offset` steps from now. */
export function codeAt(totpURI: string, offset = 0): string {
  return totpFrom(totpURI).generate({ timestamp: (currentStep() + offset) * PERIOD * 1000 + 1000 });
}

/**
 * A valid code whose time step has not been used yet (the server accepts each step once, within one step of
 * now): records the step in `used`.
 */
export function freshCode(totpURI: string, used: Set<number>): string {
  const now = currentStep();
  for (const step of [now, now + 1, now - 1]) {
    if (used.has(step)) continue;
    used.add(step);
    return totpFrom(totpURI).generate({ timestamp: step * PERIOD * 1000 + 1000 });
  }
  throw new Error("every step within the drift window was already used in this test");
}

/** Enables two-factor for the signed-in client and confirms it with a first code. */
export async function enableTwoFactor(client: ApiClient, used = new Set<number>(), password = PASSWORD) {
  const enabled = await client.post("/api/auth/two-factor/enable", { password });
  if (enabled.status !== 200) throw new Error(`enable failed: ${enabled.status} ${enabled.text}`);
  const { totpURI, backupCodes } = enabled.body as { totpURI: string; backupCodes: string[] };
  const confirmed = await client.post("/api/auth/two-factor/verify-totp", { code: freshCode(totpURI, used) });
  if (confirmed.status !== 200) throw new Error(`confirm failed: ${confirmed.status} ${confirmed.text}`);
  return { totpURI, backupCodes, used };
}
