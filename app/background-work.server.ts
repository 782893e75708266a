// Work that follows an answer without changing it or its timing — a mail whose sending depends on whether an
// address has an account, a security event's notice — run after the request has been answered, and tracked until
// it ends, so a graceful stop (and a test, before it drops its database) waits for what its answers promised.
import { AuthError } from "~/auth/errors";

/** Background work started and not yet finished. */
const pending = new Set<Promise<void>>();

/**
 * Runs work that must not change an answer or its timing (whether an address has an account decides whether a
 * mail goes out) after the current request has been answered. Failures are logged, never thrown.
 */
export function afterResponse(work: () => Promise<unknown>): void {
  // Through a promise chain, so even work that throws before it returns a promise is caught and ends.
  const done = new Promise<void>((resolve) => setImmediate(resolve))
    .then(work)
    .then(
      () => {},
      (error) => {
        if (!(error instanceof AuthError)) console.error("[latchkey] background work failed:", error);
      },
    );
  pending.add(done);
  void done.then(() => pending.delete(done));
}

/**
 * Resolves once every piece of background work started so far (and any it started) has finished: a graceful
 * stop waits for the mails its answers promised, and a test for them before it drops its database.
 */
export async function backgroundWorkSettled(): Promise<void> {
  while (pending.size > 0) await Promise.all([...pending]);
}
