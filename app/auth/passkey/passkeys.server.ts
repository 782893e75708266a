// A user's passkeys: the wire shape, listing, renaming and deleting. Every query names the owner, so another
// user's passkey id finds nothing (404), the same as an id that does not exist.
import { revokeWaysIn } from "~/auth/account/revocation.server";
import { AuthError } from "~/auth/errors";
import type { RequestContext } from "~/auth/request-context.server";
import { recordSecurityEvent } from "~/auth/security-events/record.server";
import type { SessionWithUser } from "~/auth/session/sessions.server";
import { db, type Passkey } from "~/db.server";

export const MAX_PASSKEY_NAME_LENGTH = 100;

/** Better Auth's passkey fields. */
export function publicPasskey(passkey: Passkey) {
  return {
    id: passkey.id,
    name: passkey.name,
    publicKey: passkey.publicKey,
    userId: passkey.userId,
    credentialID: passkey.credentialID,
    counter: passkey.counter,
    deviceType: passkey.deviceType,
    backedUp: passkey.backedUp,
    transports: passkey.transports,
    aaguid: passkey.aaguid,
    createdAt: passkey.createdAt,
  };
}

export type PublicPasskey = ReturnType<typeof publicPasskey>;

export const cleanPasskeyName = (name: string | undefined | null) => name?.trim().slice(0, MAX_PASSKEY_NAME_LENGTH) || null;

export async function listPasskeys(userId: string): Promise<Passkey[]> {
  return db.passkey.findMany({ where: { userId }, orderBy: { createdAt: "asc" } });
}

export async function renamePasskey(userId: string, input: { id: string; name: string }) {
  const { count } = await db.passkey.updateMany({ where: { id: input.id, userId }, data: { name: cleanPasskeyName(input.name) } });
  if (count === 0) throw new AuthError("PASSKEY_NOT_FOUND");
  const passkey = await db.passkey.findFirst({ where: { id: input.id, userId } });
  if (!passkey) throw new AuthError("PASSKEY_NOT_FOUND"); // deleted in between
  return { passkey: publicPasskey(passkey) };
}

export async function deletePasskey(ctx: RequestContext, current: SessionWithUser, input: { id: string }) {
  const userId = current.user.id;
  await db.$transaction(async (tx) => {
    const passkey = await tx.passkey.findFirst({ where: { id: input.id, userId }, select: { name: true } });
    // Through the one revocation (ADR 055): a sign-in with this passkey in flight starts no session.
    const { passkeys } = await revokeWaysIn(tx, userId, { passkeyId: input.id });
    if (!passkey || passkeys === 0) throw new AuthError("PASSKEY_NOT_FOUND");
    await recordSecurityEvent(tx, { userId, type: "passkey_removed", ctx, sessionId: current.session.id, details: { passkeyId: input.id, name: passkey.name } });
  });
  return { status: true as const };
}
