// Writing a security event (docs/decisions/048-security-events.md). Call it with the transaction that makes the
// change, so the change and its event commit or roll back together: after kill -9 there is never one without
// the other.
import { describeDevice } from "~/auth/core/device";
import type { RequestContext } from "~/auth/request-context.server";
import type { SecurityEventDetails, SecurityEventType } from "~/auth/security-events/types";
import type { Db, Transaction } from "~/db.server";

export interface SecurityEventInput {
  userId: string;
  type: SecurityEventType;
  /** The request the change came through (its client address and User-Agent); null for housekeeping or the CLI. */
  ctx?: Pick<RequestContext, "clientIp" | "userAgent"> | null;
  /** The session the event concerns. */
  sessionId?: string | null;
  /** Who acted, when not the account's owner (an admin). */
  actorUserId?: string | null;
  details?: SecurityEventDetails;
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
  return tx.securityEvent.create({
    data: {
      userId: input.userId,
      type: input.type,
      ipAddress: input.ctx?.clientIp && input.ctx.clientIp !== "unknown" ? input.ctx.clientIp : null,
      userAgent: input.ctx?.userAgent ?? null,
      device: input.ctx ? describeDevice(input.ctx.userAgent) : null,
      sessionId: input.sessionId ?? null,
      actorUserId: input.actorUserId ?? null,
      details: JSON.stringify(details),
    },
  });
}
