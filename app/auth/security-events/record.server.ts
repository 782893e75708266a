// Writing a security event (docs/decisions/048-security-events.md). Call it with the transaction that makes the
// change, so the change and its event commit or roll back together: after kill -9 there is never one without
// the other. What follows an event — its JSON log line (AUTH_EVENT_LOG=stdout) and the owner's mail — waits
// until that transaction has committed, so nothing is told about a change that was rolled back.
import { describeDevice } from "~/auth/core/device";
import { newId } from "~/auth/core/crypto.server";
import { actingAdminFor } from "~/auth/security-events/acting-admin.server";
import type { RequestContext } from "~/auth/request-context.server";
import { announceEvent } from "~/auth/security-events/notify.server";
import type { SecurityEventDetails, SecurityEventType } from "~/auth/security-events/types";
import { afterResponse } from "~/background-work.server";
import { afterCommit, db, type Db, type Transaction } from "~/db.server";

export interface SecurityEventInput {
  userId: string;
  type: SecurityEventType;
  /**
   * The request the change came through (its client address and User-Agent); null for housekeeping or the CLI.
   * When it is the request itself, made with an admin's impersonation session of this account, the admin is the
   * event's actor (acting-admin.server.ts).
   */
  ctx?: (Pick<RequestContext, "clientIp" | "userAgent"> & { request?: Request }) | null;
  /** The session the event concerns. */
  sessionId?: string | null;
  /** Who acted, when not the account's owner (an admin); during an impersonation, the admin unless given. */
  actorUserId?: string | null;
  details?: SecurityEventDetails;
  /** Not stored: the owner's address when the writer just read it under the row's lock, so its mail needs no read. */
  ownerEmail?: string;
}

/** Keys that would name a secret: refused, so a careless caller fails its tests instead of storing one. */
const SECRET_KEY = /token|secret|password|hash|code|otp|cookie/i;

export function assertNoSecrets(details: SecurityEventDetails): void {
  for (const key of Object.keys(details)) {
    if (SECRET_KEY.test(key)) throw new Error(`security event details must not hold "${key}"`);
  }
}

/** Writes one event with `tx` (a transaction, or the client for a change that is a single statement). */
export async function recordSecurityEvent(tx: Transaction | Db, input: SecurityEventInput) {
  const details = input.details ?? {};
  assertNoSecrets(details);
  const actorUserId = input.actorUserId ?? (await actingAdminFor(input.ctx?.request, input.userId));
  // Raw SQL: every session start writes one, and a model create costs the query compiler's work each time.
  const event = {
    id: newId(),
    userId: input.userId,
    type: input.type,
    createdAt: new Date(),
    ipAddress: input.ctx?.clientIp && input.ctx.clientIp !== "unknown" ? input.ctx.clientIp : null,
    userAgent: input.ctx?.userAgent ?? null,
    device: input.ctx ? describeDevice(input.ctx.userAgent) : null,
    sessionId: input.sessionId ?? null,
    actorUserId,
    details: JSON.stringify(details),
  };
  await tx.$executeRaw`
    INSERT INTO "securityEvent" ("id", "userId", "type", "createdAt", "ipAddress", "userAgent", "device", "sessionId", "actorUserId", "details")
    VALUES (${event.id}, ${event.userId}, ${event.type}, ${event.createdAt}, ${event.ipAddress}, ${event.userAgent}, ${event.device}, ${event.sessionId}, ${event.actorUserId}, ${event.details})`;
  afterCommit(tx, () => announceEvent(event, { ownerEmail: input.ownerEmail }));
  return event;
}

/**
 * A wrong password or code for an account that exists (`sign_in_failed`). Written after the answer, as work
 * nobody awaits: the caller's answer and its timing are exactly those of a wrong guess at an unknown account,
 * so the event can tell the owner without telling the guesser anything (issue 29).
 */
export function recordFailedSignIn(
  ctx: Pick<RequestContext, "clientIp" | "userAgent">,
  who: { userId: string } | { email: string },
  method: string,
  extra: SecurityEventDetails = {},
): void {
  const seen = { clientIp: ctx.clientIp, userAgent: ctx.userAgent };
  afterResponse(async () => {
    const userId = "userId" in who ? who.userId : (await db.user.findUnique({ where: { email: who.email }, select: { id: true } }))?.id;
    if (userId) await recordSecurityEvent(db, { userId, type: "sign_in_failed", ctx: seen, details: { method, ...extra } });
  });
}
