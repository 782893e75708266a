// What a page needs to show proof of work's check (ADR 060): whether to show it, and for people without
// JavaScript how long to wait. Shown before anything is typed when the client address is under a burst, and after
// any refusal that asked for a solution (an account's burst is only known once the account is typed).
import { proofRefusalOf, addressBurst } from "~/auth/proof-of-work/gate.server";
import type { Burst } from "~/auth/proof-of-work/burst.server";
import { proofOfWorkWidgetUrls } from "~/http/proof-of-work-assets.server";

export interface PageProofOfWork {
  /** Whole minutes until the burst ends, or null when nobody can say (a surge across the service). */
  minutesLeft: number | null;
  widget: { script: string; stylesheet: string; worker: string };
}

function forPage(burst: { untilMs: number | null }): PageProofOfWork {
  const minutesLeft = burst.untilMs === null ? null : Math.max(1, Math.ceil((burst.untilMs - Date.now()) / 60_000));
  return { minutesLeft, widget: proofOfWorkWidgetUrls() };
}

/** For a page's loader: the check, when this client address is under a burst. */
export async function proofOfWorkForAddress(clientIp: string): Promise<PageProofOfWork | null> {
  const burst: Burst | null = await addressBurst(clientIp);
  return burst ? forPage(burst) : null;
}

/**
 * For a page's action: wraps its work so a refusal for want of a solution is remembered (and still thrown, for the
 * page's usual error summary); `need()` then says what the page shows.
 */
export function watchProofRefusal() {
  let seen: PageProofOfWork | null = null;
  return {
    run: async <T,>(work: () => Promise<T>): Promise<T> => {
      try {
        return await work();
      } catch (error) {
        const refusal = proofRefusalOf(error);
        if (refusal) seen = forPage(refusal);
        throw error;
      }
    },
    need: () => seen,
  };
}
