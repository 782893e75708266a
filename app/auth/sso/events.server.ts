// The security events of an organization's SSO connections (ADR 048; issue 43): on the account of whoever added,
// proved or removed one, in the change's transaction, naming the connection and never a secret of it.
import type { RequestContext } from "~/auth/request-context.server";
import { recordSecurityEvent } from "~/auth/security-events/record.server";
import type { SessionWithUser } from "~/auth/session/sessions.server";
import type { Transaction } from "~/db.server";

type ConnectionEvent = "sso_connection_added" | "sso_connection_removed" | "sso_domain_verified";

export async function recordConnectionEvent(
  tx: Transaction,
  type: ConnectionEvent,
  current: SessionWithUser,
  connection: { organizationId: string; providerId: string; domain: string; samlConfig: string | null },
  ctx?: RequestContext,
): Promise<void> {
  const organization = await tx.organization.findUnique({ where: { id: connection.organizationId }, select: { name: true } });
  await recordSecurityEvent(tx, {
    userId: current.user.id,
    type,
    ctx,
    sessionId: current.session.id,
    details: {
      organizationId: connection.organizationId,
      organizationName: organization?.name ?? "",
      providerId: connection.providerId,
      protocol: connection.samlConfig ? "saml" : "oidc",
      domain: connection.domain,
    },
  });
}
