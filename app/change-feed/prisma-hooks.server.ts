// Writes are caught where they happen, in the Prisma client itself, so a write added later cannot forget to
// announce itself on the change feed: every update/upsert/delete on session, user and organization announces
// what it touched once it has run. Inside a transaction that is before the commit, so the announcement is made again after the
// transaction ends (a reader that refetched in between saw the old row). Raw SQL is not seen: code that writes
// these tables with raw SQL must call `announceChange` itself (none does today; ADR 024 lists the audit).
import { AsyncLocalStorage } from "node:async_hooks";
import { changeFeed, type Change } from "~/change-feed/feed.server";

const WRITES = new Set(["update", "updateMany", "updateManyAndReturn", "upsert", "delete", "deleteMany"]);
/** Changes announced inside the current transaction, to be announced again after it ends. */
const transactionScope = new AsyncLocalStorage<Change[]>();
/** Work waiting for the current transaction to commit (dropped if it rolls back). */
const commitScope = new AsyncLocalStorage<Array<() => void>>();

/**
 * Runs `work` once what was just written is committed: after the current `$transaction` commits (never if it
 * rolls back), or at once outside a transaction (a single statement commits by itself). For what must only
 * follow a change that happened, such as a security event's log line and mail (ADR 048).
 */
export function afterCommit(work: () => void): void {
  const waiting = commitScope.getStore();
  if (waiting) waiting.push(work);
  else work();
}

/** The values a where-clause field pins down (`"x"`, `{equals: "x"}`, `{in: [...]}`), or null if it does not. */
function pinnedValues(condition: unknown): string[] | null {
  if (typeof condition === "string") return [condition];
  if (condition && typeof condition === "object") {
    const { equals, in: list } = condition as { equals?: unknown; in?: unknown };
    if (typeof equals === "string") return [equals];
    if (Array.isArray(list) && list.every((value) => typeof value === "string")) return list;
  }
  return null;
}

/** Which session, user or organization rows a write on `model` with these arguments may have changed. */
export function changeFor(model: string, args: { where?: Record<string, unknown> } | undefined): Change | null {
  const where = args?.where ?? {};
  const pinned = (field: string) => pinnedValues(where[field]);
  switch (model) {
    case "Session": {
      const tokens = pinned("token");
      if (tokens) return { kind: "token", keys: tokens };
      const ids = pinned("id");
      if (ids) return { kind: "session", keys: ids };
      const userIds = pinned("userId");
      if (userIds) return { kind: "user", keys: userIds };
      return { kind: "all" };
    }
    case "User": {
      // Deleting a user deletes its sessions (ON DELETE CASCADE): the same change covers both.
      const ids = pinned("id");
      return ids ? { kind: "user", keys: ids } : { kind: "all" };
    }
    case "Organization": {
      // Deleting an organization clears session.activeOrganizationId (ON DELETE SET NULL).
      const ids = pinned("id");
      return ids ? { kind: "organization", keys: ids } : { kind: "all" };
    }
    default:
      return null;
  }
}

/** Announces a change to sessions or users made where the Prisma hooks cannot see it (raw SQL). */
export async function announceChange(change: Change): Promise<void> {
  transactionScope.getStore()?.push(change);
  await changeFeed.publish(change);
}

interface ExtensibleClient {
  $extends(extension: unknown): unknown;
  $transaction(...args: unknown[]): Promise<unknown>;
}

/** The client with the hooks that feed the change feed; `$transaction` re-announces after the transaction ends. */
export function withChangeAnnouncements<Client extends ExtensibleClient>(base: Client): Client {
  const announceAfterWrite = {
    async $allOperations({ model, operation, args, query }: { model: string; operation: string; args: unknown; query: (args: unknown) => Promise<unknown> }) {
      if (!WRITES.has(operation)) return query(args);
      const result = await query(args);
      const change = changeFor(model, args as { where?: Record<string, unknown> });
      if (change) await announceChange(change);
      return result;
    },
  };
  const extended = base.$extends({
    name: "change-feed",
    query: { session: announceAfterWrite, user: announceAfterWrite, organization: announceAfterWrite },
  }) as Client;

  async function $transaction(...args: unknown[]) {
    const announced: Change[] = [];
    const committed: Array<() => void> = [];
    let result: unknown;
    try {
      result = await transactionScope.run(announced, () => commitScope.run(committed, () => extended.$transaction(...args)));
    } finally {
      // Committed or rolled back: either way the rows now read as they will stay.
      for (const change of announced) await changeFeed.publish(change);
    }
    for (const work of committed) work();
    return result;
  }
  return new Proxy(extended, {
    get(target, property) {
      return property === "$transaction" ? $transaction : Reflect.get(target, property);
    },
  });
}
