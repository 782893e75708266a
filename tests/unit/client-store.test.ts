// The client's live stores (app/client/store.ts) and their cross-tab signal (app/client/session-sync.ts), with
// fake timers: a signal refetches after 10 ms and a burst makes one refetch; a store nobody watches is torn
// down after 1000 ms; focus and other tabs' announcements reach a watched session store only.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_RETRY_INTERVAL_MS, SESSION_SIGNAL_DELAY_MS, STORE_TEARDOWN_DELAY_MS } from "~/client/constants";
import { createSessionSync } from "~/client/session-sync";
import { createQueryStore } from "~/client/store";
import type { ClientResult } from "~/client/types";

const flush = () => vi.advanceTimersByTimeAsync(0);

describe("the specification's client constants (spec §9)", () => {
  it("are 10 ms, 1000 ms and 1000 ms", () => {
    expect(SESSION_SIGNAL_DELAY_MS).toBe(10);
    expect(DEFAULT_RETRY_INTERVAL_MS).toBe(1000);
    expect(STORE_TEARDOWN_DELAY_MS).toBe(1000);
  });
});

describe("createQueryStore", () => {
  let answers: number;
  let fetcher: ReturnType<typeof vi.fn<() => Promise<ClientResult<number>>>>;
  beforeEach(() => {
    vi.useFakeTimers();
    answers = 0;
    fetcher = vi.fn(async () => ({ data: ++answers, error: null }));
  });
  afterEach(() => vi.useRealTimers());

  it("fetches when first watched: pending, then the answer", async () => {
    const store = createQueryStore(fetcher);
    expect(store.getSnapshot()).toMatchObject({ data: null, isPending: true, isRefetching: false });
    expect(fetcher).not.toHaveBeenCalled();
    store.subscribe(() => {});
    await flush();
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(store.getSnapshot()).toMatchObject({ data: 1, error: null, isPending: false, isRefetching: false });
  });

  it("coalesces signals: several within 10 ms make one refetch, which shows as isRefetching", async () => {
    const store = createQueryStore(fetcher);
    const states: Array<{ isRefetching: boolean; data: number | null }> = [];
    store.subscribe(() => states.push({ isRefetching: store.getSnapshot().isRefetching, data: store.getSnapshot().data }));
    await flush();
    store.signal();
    store.signal();
    await vi.advanceTimersByTimeAsync(SESSION_SIGNAL_DELAY_MS - 1);
    store.signal();
    expect(fetcher).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetcher).toHaveBeenCalledTimes(2);
    expect(states).toEqual([
      { isRefetching: false, data: 1 },
      { isRefetching: true, data: 1 },
      { isRefetching: false, data: 2 },
    ]);
  });

  it("an unwatched store does not fetch on a signal; it refetches when watched again", async () => {
    const store = createQueryStore(fetcher);
    store.signal();
    await vi.advanceTimersByTimeAsync(100);
    expect(fetcher).not.toHaveBeenCalled();
    store.subscribe(() => {});
    await flush();
    expect(fetcher).toHaveBeenCalledTimes(1);
  });

  it("is torn down 1000 ms after its last listener leaves, not before, and a returning listener cancels it", async () => {
    const stop = vi.fn();
    const onStart = vi.fn(() => stop);
    const store = createQueryStore(fetcher, { onStart });
    const leave = store.subscribe(() => {});
    await flush();
    leave();
    await vi.advanceTimersByTimeAsync(STORE_TEARDOWN_DELAY_MS - 1);
    expect(stop).not.toHaveBeenCalled();
    expect(store.started).toBe(true);
    // Back within the delay (a re-render, a page change): nothing torn down, nothing refetched.
    const leaveAgain = store.subscribe(() => {});
    await vi.advanceTimersByTimeAsync(STORE_TEARDOWN_DELAY_MS * 2);
    expect(stop).not.toHaveBeenCalled();
    expect(fetcher).toHaveBeenCalledTimes(1);
    leaveAgain();
    await vi.advanceTimersByTimeAsync(STORE_TEARDOWN_DELAY_MS);
    expect(stop).toHaveBeenCalledTimes(1);
    expect(store.started).toBe(false);
    // Torn down: it keeps its last answer to show, and refetches for the next listener.
    expect(store.getSnapshot().data).toBe(1);
    store.subscribe(() => {});
    await flush();
    expect(onStart).toHaveBeenCalledTimes(2);
    expect(fetcher).toHaveBeenCalledTimes(2);
  });

  it("set() replaces the data and wins over an answer still on its way", async () => {
    let release!: () => void;
    const slow = vi.fn(() => new Promise<ClientResult<number>>((resolve) => (release = () => resolve({ data: 99, error: null }))));
    const store = createQueryStore(slow);
    store.subscribe(() => {});
    store.set(5);
    release();
    await flush();
    expect(store.getSnapshot()).toMatchObject({ data: 5, isPending: false });
  });

  it("keeps an error as state, never throws", async () => {
    const failing = vi.fn(async (): Promise<ClientResult<number>> => ({
      data: null,
      error: { status: 0, statusText: "", code: "NETWORK_ERROR", message: "offline", source: "network" },
    }));
    const store = createQueryStore(failing);
    store.subscribe(() => {});
    await flush();
    expect(store.getSnapshot()).toMatchObject({ data: null, isPending: false, error: { code: "NETWORK_ERROR" } });
  });
});

describe("createSessionSync", () => {
  let document: EventTarget & { visibilityState: string };
  beforeEach(() => {
    document = Object.assign(new EventTarget(), { visibilityState: "visible" });
    vi.stubGlobal("window", new EventTarget());
    vi.stubGlobal("document", document);
  });
  afterEach(() => vi.unstubAllGlobals());

  it("tells the other tabs (not itself) that the session changed", async () => {
    const channel = `test-${Math.random()}`;
    const thisTab = createSessionSync(channel);
    const otherTab = createSessionSync(channel);
    const heardHere = vi.fn();
    const heardThere = vi.fn();
    const stopHere = thisTab.listen(heardHere);
    const stopThere = otherTab.listen(heardThere);
    thisTab.announce();
    await vi.waitFor(() => expect(heardThere).toHaveBeenCalledTimes(1));
    expect(heardHere).not.toHaveBeenCalled();
    stopThere();
    thisTab.announce();
    otherTab.announce();
    await vi.waitFor(() => expect(heardHere).toHaveBeenCalledTimes(1));
    expect(heardThere).toHaveBeenCalledTimes(1);
    stopHere();
  });

  it("hears the window regaining focus or the page becoming visible, until detached", () => {
    const heard = vi.fn();
    const stop = createSessionSync(`test-${Math.random()}`).listen(heard);
    (window as unknown as EventTarget).dispatchEvent(new Event("focus"));
    document.dispatchEvent(new Event("visibilitychange"));
    document.visibilityState = "hidden";
    document.dispatchEvent(new Event("visibilitychange"));
    expect(heard).toHaveBeenCalledTimes(2);
    stop();
    (window as unknown as EventTarget).dispatchEvent(new Event("focus"));
    expect(heard).toHaveBeenCalledTimes(2);
  });
});
