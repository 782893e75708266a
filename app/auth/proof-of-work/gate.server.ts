// The one check sign-in (e-mail, username; API and page), sign-up and reset requests go through (issue 39 §5):
// after the per-address limit, before the lock and the password. Off (AUTH_POW=off, the default): returns at once,
// with no query. On: a device the typed account knows is never asked; any other request under a burst needs the
// solution of a challenge this server made, unused and unexpired, in the `x-captcha-response` header or the form
// field `altcha` — Better Auth's captcha plugin's wire. The answers depend on the burst, never on whether the
// account exists (an unknown identifier counts alike), so they tell nothing about accounts.
// docs/decisions/060-proof-of-work-under-a-burst.md.
import { AuthError } from "~/auth/errors";
import { burstFor, type Burst, type BurstSubject } from "~/auth/proof-of-work/burst.server";
import { createProofChallenge, spendProof } from "~/auth/proof-of-work/challenge.server";
import type { RequestContext } from "~/auth/request-context.server";
import { recordSecurityEvent } from "~/auth/security-events/record.server";
import { presentedDeviceHash } from "~/auth/sign-in/known-device.server";
import { afterResponse } from "~/background-work.server";
import { db } from "~/db.server";
import { env } from "~/env.server";

export const CAPTCHA_HEADER = "x-captcha-response";
export const CAPTCHA_FORM_FIELD = "altcha";

/**
 * Who the request is about: an account (with whether this browser is one of its known devices, when the caller's
 * query already answered it), a typed identifier without one, or an address still to be looked up (sign-up, reset).
 */
export type GateSubject = { userId: string; knownDevice?: boolean } | { identifier: string } | { email: string };

/** What a refused request is for: a sign-in method (`password`, `username`), or `sign_up` / `reset`. */
export type GuardedFlow = "password" | "username" | "sign_up" | "reset";

const SIGN_IN_FLOWS = new Set<GuardedFlow>(["password", "username"]);

async function isKnownDevice(ctx: RequestContext, userId: string): Promise<boolean> {
  const deviceHash = presentedDeviceHash(ctx);
  if (!deviceHash) return false; // only a browser that presents a device cookie can be known
  return (await db.knownDevice.findUnique({ where: { userId_deviceHash: { userId, deviceHash } }, select: { id: true } })) !== null;
}

async function resolve(ctx: RequestContext, subject: GateSubject): Promise<{ burstSubject: BurstSubject; userId: string | null; known: boolean }> {
  if ("identifier" in subject) return { burstSubject: subject, userId: null, known: false };
  if ("userId" in subject) {
    const known = subject.knownDevice ?? (await isKnownDevice(ctx, subject.userId));
    return { burstSubject: { userId: subject.userId }, userId: subject.userId, known };
  }
  const user = await db.user.findUnique({ where: { email: subject.email }, select: { id: true } });
  if (!user) return { burstSubject: { identifier: `email:${subject.email}` }, userId: null, known: false };
  return { burstSubject: { userId: user.id }, userId: user.id, known: await isKnownDevice(ctx, user.id) };
}

/** The solution this request carries: the header first (Better Auth's), else the form field. */
export function proofResponseOf(ctx: RequestContext): string | null {
  const header = ctx.request.headers.get(CAPTCHA_HEADER);
  if (header) return header;
  return ctx.captchaResponse || null;
}

const BURST_END_REASON = "burst-until:";

/** The refusal, carrying a fresh challenge; pages read the burst's end from its `reason` (never sent by the API). */
async function refusal(code: "MISSING_RESPONSE" | "VERIFICATION_FAILED", burst: Burst): Promise<AuthError> {
  const challenge = await createProofChallenge();
  return new AuthError(code, { extra: { challenge }, reason: `${BURST_END_REASON}${burst.untilMs ?? ""}` });
}

/** For pages: whether an error is a proof-of-work refusal, and when its burst ends (ms since the epoch, or null). */
export function proofRefusalOf(error: unknown): { untilMs: number | null } | null {
  if (!(error instanceof AuthError) || !error.reason?.startsWith(BURST_END_REASON)) return null;
  const untilMs = Number(error.reason.slice(BURST_END_REASON.length));
  return { untilMs: error.reason.length > BURST_END_REASON.length && Number.isFinite(untilMs) ? untilMs : null };
}

/**
 * Throws 400 MISSING_RESPONSE or 403 VERIFICATION_FAILED (each with a fresh `challenge`) when this request falls
 * under a burst and carries no usable solution; otherwise returns, having used the solution up if it needed one.
 */
export async function requireProofUnderBurst(ctx: RequestContext, subject: GateSubject, flow: GuardedFlow): Promise<void> {
  if (env.AUTH_POW === "off") return;
  const { burstSubject, userId, known } = await resolve(ctx, subject);
  if (known) return;
  const burst = await burstFor(ctx.clientIp, burstSubject);
  if (!burst) return;
  const response = proofResponseOf(ctx);
  const verdict = response === null ? null : await spendProof(response);
  if (verdict === "verified") return;
  if (userId && SIGN_IN_FLOWS.has(flow)) {
    const seen = { clientIp: ctx.clientIp, userAgent: ctx.userAgent };
    afterResponse(() => recordSecurityEvent(db, { userId, type: "sign_in_blocked", ctx: seen, details: { reason: "challenge", method: flow, knownDevice: false } }));
  }
  throw await refusal(verdict === null ? "MISSING_RESPONSE" : "VERIFICATION_FAILED", burst);
}

/** A page before anything is typed: whether this address is under a burst already (so the page shows the check). */
export async function addressBurst(clientIp: string): Promise<Burst | null> {
  if (env.AUTH_POW === "off") return null;
  return burstFor(clientIp, null);
}
