// The client's timing constants (spec §9), named by what they are.

/** A call that changes the session refetches it this long after it answers, so a burst of calls makes one refetch. */
export const SESSION_SIGNAL_DELAY_MS = 10;
/** Linear retries wait this long between attempts unless told otherwise. */
export const DEFAULT_RETRY_INTERVAL_MS = 1000;
/** A store nobody listens to any more is torn down (focus and other-tab listeners removed) after this long. */
export const STORE_TEARDOWN_DELAY_MS = 1000;
/** The API's default base path on this origin (spec §2). */
export const DEFAULT_BASE_PATH = "/api/auth";
/** The BroadcastChannel every tab of this origin listens on for "the session changed". */
export const SESSION_CHANNEL_NAME = "latchkey.session";
