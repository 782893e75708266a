// A live copy of one call's answer (the session, the passkey list, the active organization) for any number of
// subscribers. The first subscriber starts it (one fetch, and whatever `onStart` attaches: focus and other-tab
// listeners); `signal()` refetches 10 ms later, so a burst of calls makes one request; and once nobody has
// listened for 1000 ms it is torn down (listeners detached; the next subscriber refetches). Framework-free: the
// React hooks (app/client/react.ts) read it through useSyncExternalStore.
import { SESSION_SIGNAL_DELAY_MS, STORE_TEARDOWN_DELAY_MS } from "~/client/constants";
import type { ClientError, ClientResult } from "~/client/types";

export interface QueryState<T> {
  data: T | null;
  error: ClientError | null;
  /** No answer yet. */
  isPending: boolean;
  /** An answer is shown and a newer one is on its way. */
  isRefetching: boolean;
}

export interface QueryStore<T> {
  getSnapshot(): QueryState<T>;
  subscribe(listener: () => void): () => void;
  /** Fetches now; resolves once the state reflects the answer. */
  refetch(): Promise<void>;
  /** Refetches after the signal delay; signals within the delay share one refetch. Unwatched: refetched on next use. */
  signal(): void;
  /** Replaces the data with a value known to be fresh (e.g. a page's revalidated loader data). */
  set(data: T | null): void;
  /** Whether anyone is listening (and the store is started). */
  readonly started: boolean;
}

export const INITIAL_STATE: QueryState<never> = Object.freeze({ data: null, error: null, isPending: true, isRefetching: false });

export function createQueryStore<T>(
  fetcher: () => Promise<ClientResult<T>>,
  options: { onStart?: (store: QueryStore<T>) => (() => void) | void } = {},
): QueryStore<T> {
  let state: QueryState<T> = INITIAL_STATE;
  const listeners = new Set<() => void>();
  let stale = true;
  let started = false;
  let stop: (() => void) | void;
  let teardownTimer: ReturnType<typeof setTimeout> | undefined;
  let signalTimer: ReturnType<typeof setTimeout> | undefined;
  let latest = 0;

  const update = (next: Partial<QueryState<T>>) => {
    state = { ...state, ...next };
    listeners.forEach((listener) => listener());
  };

  async function refetch(): Promise<void> {
    const call = ++latest;
    stale = false;
    if (!state.isPending) update({ isRefetching: true });
    let result: ClientResult<T>;
    try {
      result = await fetcher();
    } catch (cause) {
      // A fetcher is meant to answer {data, error}; one that throws must not leave the store refetching forever.
      result = { data: null, error: { status: 0, statusText: "", code: "UNKNOWN_ERROR", message: (cause as Error)?.message || "unknown error", source: "browser" } };
    }
    if (call !== latest) return; // a newer refetch started meanwhile: its answer wins
    update({ data: result.data, error: result.error, isPending: false, isRefetching: false });
  }

  function start() {
    started = true;
    stop = options.onStart?.(store);
    if (stale) void refetch();
  }

  function teardown() {
    started = false;
    // A signal still waiting would fetch for nobody; the store is stale and fetches when someone listens again.
    clearTimeout(signalTimer);
    signalTimer = undefined;
    stop?.();
    stop = undefined;
    stale = true;
  }

  const store: QueryStore<T> = {
    getSnapshot: () => state,
    subscribe(listener) {
      listeners.add(listener);
      clearTimeout(teardownTimer);
      if (!started) start();
      return () => {
        listeners.delete(listener);
        if (listeners.size > 0) return;
        clearTimeout(teardownTimer);
        teardownTimer = setTimeout(() => listeners.size === 0 && teardown(), STORE_TEARDOWN_DELAY_MS);
      };
    },
    refetch,
    signal() {
      if (!started) {
        stale = true;
        return;
      }
      if (signalTimer !== undefined) return;
      signalTimer = setTimeout(() => {
        signalTimer = undefined;
        void refetch();
      }, SESSION_SIGNAL_DELAY_MS);
    },
    set(data) {
      latest++; // an answer still on its way is older than this
      stale = false;
      update({ data, error: null, isPending: false, isRefetching: false });
    },
    get started() {
      return started;
    },
  };
  return store;
}
