// Writes are caught where they happen, in the Prisma client itself, so a write added later cannot forget to
// announce itself on the change feed: every update/upsert/delete on session, user and organization announces
// what it touched once it has run. Inside a transaction that is before the commit, so the announcement is made again after the
// transaction ends (a reader that refetched in between saw the old row). Raw SQL is not seen: code that writes
// these tables with raw SQL must call `announceChange` itself (none does today; ADR 024 lists the audit).
//
// A transaction's scope (what to announce again, what waits for the commit) travels with the transaction client
// handed to its callback, not in an AsyncLocalStorage: once a process has run an AsyncLocalStorage, Node 20
// keeps promise hooks on for every promise of every request, about a microsecond and a half of each session read.
import { changeFeed, type Change } from "~/change-feed/feed.server";

const WRITES = new Set(["update", "updateMany", "updateManyAndReturn", "upsert", "delete", "deleteMany"]);
/** The models whose writes the session cache must hear of, by the transaction client's property names. */
const ANNOUNCED_MODELS: Record<string, string> = { session: "Session", user: "User", organization: "Organization" };

interface TransactionScope {
  /** Changes written inside the transaction, to be announced again after it ends. */
  announced: Change[];
  /** Work waiting for the transaction to commit (dropped if it rolls back). */
  committed: Array<() => void>;
}

/** Each open interactive transaction's scope, by the client its callback was given. */
const scopes = new WeakMap<object, TransactionScope>();

/**
 * Runs `work` once what `client` just wrote is committed: after its `$transaction` commits (never if it rolls
 * back), or at once when `client` is not a transaction's (a single statement commits by itself). For what must
 * only follow a change that happened, such as a security event's log line and mail (ADR 048).
 */
export function afterCommit(client: object, work: () => void): void {
  const scope = scopes.get(client);
  if (scope) scope.committed.push(work);
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
  await changeFeed.publish(change);
}

/**
 * The transaction client a `$transaction` callback is given, noting the writes to announced models in `scope`
 * as they are made (the client's own hook announces them at once, before the commit).
 */
function scopedTransactionClient<Tx extends object>(tx: Tx, scope: TransactionScope): Tx {
  const delegates = new Map<string, unknown>();
  const client = new Proxy(tx, {
    get(target, property) {
      const value = Reflect.get(target, property);
      const model = typeof property === "string" ? ANNOUNCED_MODELS[property] : undefined;
      if (!model || typeof value !== "object" || value === null) return value;
      let delegate = delegates.get(model);
      if (!delegate) {
        delegate = new Proxy(value, {
          get(modelDelegate, operation) {
            const method = Reflect.get(modelDelegate, operation);
            if (typeof operation !== "string" || !WRITES.has(operation) || typeof method !== "function") return method;
            return (args: { where?: Record<string, unknown> } | undefined) => {
              const change = changeFor(model, args);
              if (change) scope.announced.push(change);
              return method.call(modelDelegate, args);
            };
          },
        });
        delegates.set(model, delegate);
      }
      return delegate;
    },
  });
  scopes.set(client, scope);
  return client;
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

  async function $transaction(first: unknown, ...rest: unknown[]) {
    // The list form ($transaction([...])) runs queries made on the client itself, outside any scope: their
    // announcements could not be made again after the commit. Refused, so no write forgets it.
    if (typeof first !== "function") throw new TypeError("use the interactive form, $transaction(async (tx) => …): the list form's writes cannot be announced after the commit");
    const scope: TransactionScope = { announced: [], committed: [] };
    let result: unknown;
    try {
      result = await extended.$transaction((tx: object) => first(scopedTransactionClient(tx, scope)), ...rest);
    } finally {
      // Committed or rolled back: either way the rows now read as they will stay.
      for (const change of scope.announced) await changeFeed.publish(change);
    }
    for (const work of scope.committed) work();
    return result;
  }
  return new Proxy(extended, {
    get(target, property) {
      return property === "$transaction" ? $transaction : Reflect.get(target, property);
    },
  });
}
