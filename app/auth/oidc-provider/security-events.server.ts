// The OpenID provider's security events (issue 29's log, issue 31's list): an application given access (consent,
// or a trusted application's first sign-in), that access revoked, and the first tokens an application received
// under a consent. Each is written with the transaction that makes the change (ADR 048); the details name the
// application as it was called then, never a token.
import type { RequestContext } from "~/auth/request-context.server";
import { recordSecurityEvent } from "~/auth/security-events/record.server";
import type { Transaction } from "~/db.server";

export type OidcSecurityEvent =
  | { type: "application_authorized"; userId: string; clientId: string; scopes: string[]; lastingAccess?: boolean }
  | { type: "application_revoked"; userId: string; clientId: string; applicationRemoved?: boolean; actorUserId?: string | null }
  | { type: "application_tokens_issued"; userId: string; clientId: string };

export async function recordOidcSecurityEvent(tx: Transaction, event: OidcSecurityEvent, ctx?: Pick<RequestContext, "clientIp" | "userAgent"> | null): Promise<void> {
  const client = await tx.oidcClient.findUnique({ where: { id: event.clientId }, select: { name: true, trusted: true } });
  await recordSecurityEvent(tx, {
    userId: event.userId,
    type: event.type,
    ctx,
    actorUserId: event.type === "application_revoked" ? event.actorUserId : null,
    details: {
      application: client?.name ?? event.clientId,
      clientId: event.clientId,
      ...(event.type === "application_authorized" ? { scopes: event.scopes.join(" "), trusted: client?.trusted === true } : {}),
      ...(event.type === "application_authorized" && event.lastingAccess ? { lastingAccess: true } : {}),
      ...(event.type === "application_revoked" && event.applicationRemoved ? { applicationRemoved: true } : {}),
    },
  });
}
