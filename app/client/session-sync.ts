// "The session may have changed": heard from other tabs of this origin (BroadcastChannel) and from the window
// coming back into focus, told to other tabs when this one signs in, signs out or changes the user. The
// session store attaches these while someone watches it (app/client/store.ts).
import { SESSION_CHANNEL_NAME } from "~/client/constants";

export interface SessionSync {
  /** Tells every other open tab to refetch its session. */
  announce(): void;
  /** Calls `onChange` when another tab announces or this window regains focus; returns the detach. */
  listen(onChange: () => void): () => void;
}

export function createSessionSync(channelName = SESSION_CHANNEL_NAME): SessionSync {
  const browser = typeof window !== "undefined" && typeof document !== "undefined";
  // One channel per client, opened on first use: a BroadcastChannel does not hear its own messages, so this
  // tab's announcements reach only the others.
  let channel: BroadcastChannel | null = null;
  const open = () => (channel ??= typeof BroadcastChannel === "function" ? new BroadcastChannel(channelName) : null);

  return {
    announce() {
      // Outside a browser (server rendering, Node scripts) there are no other tabs, and an open channel would
      // keep the process alive.
      if (!browser) return;
      open()?.postMessage({ event: "session", at: Date.now() });
    },
    listen(onChange) {
      if (!browser) return () => {};
      const onMessage = (event: MessageEvent) => {
        if ((event.data as { event?: unknown })?.event === "session") onChange();
      };
      const onVisible = () => {
        if (document.visibilityState === "visible") onChange();
      };
      const tabs = open();
      tabs?.addEventListener("message", onMessage);
      window.addEventListener("focus", onVisible);
      document.addEventListener("visibilitychange", onVisible);
      return () => {
        tabs?.removeEventListener("message", onMessage);
        window.removeEventListener("focus", onVisible);
        document.removeEventListener("visibilitychange", onVisible);
      };
    },
  };
}
