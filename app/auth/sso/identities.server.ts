// The identities (account rows) linked through SSO connections end through the one revocation (ADR 055), one
// person at a time: a sign-in through the connection in flight when it goes starts no session. People keep their
// accounts, their other ways in and their memberships (issue 43).
import { revokeWaysIn } from "~/auth/account/revocation.server";
import type { Transaction } from "~/db.server";

/** Ends every identity linked through these connection ids; rows taken in user order, so locks never cross. */
export async function endConnectionIdentities(tx: Transaction, providerIds: string[]): Promise<number> {
  if (providerIds.length === 0) return 0;
  const rows = await tx.account.findMany({
    where: { providerId: { in: providerIds } },
    select: { id: true, userId: true },
    orderBy: [{ userId: "asc" }, { id: "asc" }],
  });
  for (const row of rows) await revokeWaysIn(tx, row.userId, { linkedAccountId: row.id });
  return rows.length;
}

/** Before an organization is deleted: the identities of its connections (which go with it) end too. */
export async function endOrganizationConnectionIdentities(tx: Transaction, organizationId: string): Promise<number> {
  const connections = await tx.ssoProvider.findMany({ where: { organizationId }, select: { providerId: true } });
  return endConnectionIdentities(tx, connections.map((connection) => connection.providerId));
}
