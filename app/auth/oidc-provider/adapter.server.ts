// oidc-provider's storage over Prisma: every model in one table keyed by (model, id), its payload as JSON, with
// the columns it is looked up by (grant, user code, uid) and those "Revoke access" deletes by (person and
// application). Clients are not stored here: they are read from their own table on every use (clients.server.ts).
// See docs/decisions/047-oidc-keys-and-storage.md.
import { db, type Db, type Transaction } from "~/db.server";
import { clientMetadata } from "./clients.server";

type Payload = Record<string, unknown> & { grantId?: string; userCode?: string; uid?: string; accountId?: string; clientId?: string };

const text = (value: unknown): string | null => (typeof value === "string" && value.length > 0 ? value : null);

/**
 * Called when a conditional consume finds the code or refresh token already used: two requests raced past the
 * provider's own "already consumed?" check, and only the first may win. Throws the error the provider answers.
 */
export type OnLostRace = (model: string, grantId: string | null) => Promise<never>;

/** Ends everything issued under a grant: its codes and tokens, and the grant itself. */
export async function revokeGrant(grantId: string): Promise<void> {
  await db.oidcModel.deleteMany({ where: { OR: [{ grantId }, { model: "Grant", id: grantId }] } });
}

/** Ends every code, token and grant a person holds for an application ("Revoke access"). */
export async function revokeEverythingFor(tx: Transaction | Db, accountId: string, clientId: string): Promise<void> {
  await tx.oidcModel.deleteMany({ where: { accountId, clientId } });
}

/**
 * Ends everything the provider holds for a person, for every application: codes, access and refresh tokens,
 * grants and the provider's own sessions (a ban, ADR 051). Remembered consents stay: they are the person's
 * choices, and an application must still sign them in again to get anything.
 */
export async function endProviderAccessOf(tx: Transaction | Db, accountId: string): Promise<void> {
  await tx.oidcModel.deleteMany({ where: { accountId } });
}

/** Called in the transaction that stores an access token for a person (the first one per consent is an event). */
export type OnAccessTokenStored = (tx: Transaction, accountId: string, clientId: string) => Promise<void>;

export function prismaAdapter(onLostRace: OnLostRace, onAccessTokenStored: OnAccessTokenStored) {
  return class PrismaAdapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
      if (this.model === "Client") throw new Error("clients are registered with `npm run oidc -- add-client`");
      const data = {
        payload: JSON.stringify(payload),
        grantId: text(payload.grantId),
        userCode: text(payload.userCode),
        uid: text(payload.uid),
        accountId: text(payload.accountId),
        clientId: text(payload.clientId),
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      };
      const row = { where: { model_id: { model: this.model, id } }, create: { model: this.model, id, ...data }, update: data };
      if (this.model === "AccessToken" && data.accountId && data.clientId) {
        const { accountId, clientId } = data;
        await db.$transaction(async (tx) => {
          await tx.oidcModel.upsert(row);
          await onAccessTokenStored(tx, accountId, clientId);
        });
        return;
      }
      await db.oidcModel.upsert(row);
    }

    async find(id: string): Promise<Payload | undefined> {
      if (typeof id !== "string" || id.length === 0 || id.length > 512) return undefined;
      if (this.model === "Client") return clientMetadata(id);
      return this.#read(await db.oidcModel.findUnique({ where: { model_id: { model: this.model, id } } }));
    }

    async findByUserCode(userCode: string): Promise<Payload | undefined> {
      return this.#read(await db.oidcModel.findFirst({ where: { model: this.model, userCode } }));
    }

    async findByUid(uid: string): Promise<Payload | undefined> {
      return this.#read(await db.oidcModel.findFirst({ where: { model: this.model, uid } }));
    }

    /** First use wins: a conditional update, so of two racing uses exactly one finds the row unconsumed. */
    async consume(id: string): Promise<void> {
      const { count } = await db.oidcModel.updateMany({ where: { model: this.model, id, consumedAt: null }, data: { consumedAt: new Date() } });
      if (count === 0) {
        const row = await db.oidcModel.findUnique({ where: { model_id: { model: this.model, id } }, select: { grantId: true } });
        await onLostRace(this.model, row?.grantId ?? null);
      }
    }

    async destroy(id: string): Promise<void> {
      await db.oidcModel.deleteMany({ where: { model: this.model, id } });
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.oidcModel.deleteMany({ where: { model: this.model, grantId } });
    }

    #read(row: { payload: string; expiresAt: Date | null; consumedAt: Date | null } | null): Payload | undefined {
      if (!row || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) return undefined;
      const payload = JSON.parse(row.payload) as Payload;
      return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
    }
  };
}

/** When a row was first stored, to the millisecond (the payload's `iat` is in whole seconds). */
export async function firstStoredAt(model: string, id: string): Promise<Date | null> {
  const row = await db.oidcModel.findUnique({ where: { model_id: { model, id } }, select: { createdAt: true } });
  return row?.createdAt ?? null;
}

/** Housekeeping: what the provider stored and has expired. */
export async function deleteExpiredProviderRows(now = new Date()): Promise<void> {
  await db.oidcModel.deleteMany({ where: { expiresAt: { lt: now } } });
}
