// React bindings: the client plus hooks over its live stores. The first render (on the server, and hydrating
// in the browser) shows `initialData` when given, so a page its loader already answered does not flash; the
// store then keeps it live (refetch rules: app/client/index.ts; timing: app/client/store.ts).
import { useEffect, useSyncExternalStore } from "react";
import { createAuthClient as createBaseClient, type AuthClientOptions } from "~/client/index";
import { INITIAL_STATE, type QueryState, type QueryStore } from "~/client/store";

export type LiveQuery<T> = QueryState<T> & { refetch: () => Promise<void> };

export interface LiveQueryOptions<T> {
  /** A value known to be fresh now (a loader's): shown first, and given to the store on mount, so no refetch is needed. */
  initialData?: T;
}

export function useQueryStore<T>(store: QueryStore<T>, options: LiveQueryOptions<T> = {}): LiveQuery<T> {
  const { initialData } = options;
  // Declared before useSyncExternalStore's own subscription, so it runs first: the store starts from the
  // loader's value instead of fetching it again. A revalidated loader's new value replaces it too.
  useEffect(() => {
    if (initialData !== undefined) store.set(initialData);
  }, [store, initialData]);
  const state = useSyncExternalStore(store.subscribe, store.getSnapshot, () => INITIAL_STATE as QueryState<T>);
  const shown = state.isPending && initialData !== undefined ? { ...state, data: initialData, isPending: false } : state;
  return { ...shown, refetch: store.refetch };
}

/** The client with React hooks: `useSession()`, `usePasskeys()`, `useActiveOrganization()`. */
export function createAuthClient(options: AuthClientOptions = {}) {
  const client = createBaseClient(options);
  type Stores = typeof client.$store;
  type DataOf<S> = S extends QueryStore<infer T> ? T : never;
  return {
    ...client,
    /** The session: `{data, error, isPending, isRefetching, refetch}`, refetched per spec §4, on focus and across tabs. */
    useSession: (options?: LiveQueryOptions<DataOf<Stores["session"]>>) => useQueryStore(client.$store.session, options),
    /** The signed-in user's passkeys, refetched after one is registered, renamed or deleted. */
    usePasskeys: (options?: LiveQueryOptions<DataOf<Stores["passkeys"]>>) => useQueryStore(client.$store.passkeys, options),
    /** The active organization in full, refetched after set-active, accept-invitation, leave and delete. */
    useActiveOrganization: (options?: LiveQueryOptions<DataOf<Stores["activeOrganization"]>>) =>
      useQueryStore(client.$store.activeOrganization, options),
  };
}

export type ReactAuthClient = ReturnType<typeof createAuthClient>;
