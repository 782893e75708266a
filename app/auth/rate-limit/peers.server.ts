// Whether any other process serves from this PostgreSQL database, so a lone instance can keep its rate-limit
// counters in memory (no write per request) and several share them in the database. ADR 025.
//
// Every process that counts holds the process's one listening connection (app/postgres-listener.server.ts),
// renamed `latchkey-peer` (application_name) so it can be counted apart from those of processes that only
// listen for the session cache, and LISTENs on this channel on it. A process that connects says `hello`; the
// others, on hearing it, move their counters to the database and answer `ready`. A newcomer counts the other
// `latchkey-peer` connections in pg_stat_activity and waits (at most a second) for that many `ready`s before it
// counts anything, so no count made in memory is missed. A process that leaves is noticed by the same count, every
// few seconds. Anything unclear (no connection yet, the connection lost, another instance that never answers)
// reads as "not alone": the shared database is always the safe answer.
import type pg from "pg";
import type { Listener } from "~/postgres-listener.server";

const CHANNEL = "latchkey_peers";
/** What a counting process's listening connection is called while it takes part. */
export const PEER_NAME = "latchkey-peer";
/** How often the peers are counted again (a process that left, a `hello` missed while reconnecting). */
export const PEER_CHECK_MS = 2_000;
/** How long a newcomer waits for the others' `ready` before counting anyway. */
const READY_WAIT_MS = 1_000;

export interface PeerEvents {
  /** Called with true once this process is known to be alone, false as soon as it may not be. */
  aloneChanged(alone: boolean): Promise<void> | void;
}

export interface Peers {
  /** Resolves once the first count is done (and the others have moved their counters), or after a second. */
  readonly settled: Promise<void>;
}

const instanceId = `${process.pid}-${Math.random().toString(36).slice(2, 10)}`;

export function watchPostgresPeers(listener: Listener, events: PeerEvents, { checkMs = PEER_CHECK_MS } = {}): Peers {
  let alone = false;
  /** The listening connection while it stands. */
  let client: pg.Client | null = null;
  let timer: NodeJS.Timeout | undefined;
  /** What the last count on this connection found, made in `setUp`, acted on in `up`. */
  let othersAtConnect = 0;
  let settle!: () => void;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  setTimeout(settle, READY_WAIT_MS * 2).unref(); // never hold requests for long, whatever the database does
  /** `ready`s still awaited by this newcomer, and what to do when they are in. */
  let awaitingReady: { count: number; done: () => void } | null = null;

  // Transitions run one at a time, in order, so a quick alone → not alone → alone cannot interleave.
  let transitions = Promise.resolve();
  const setAlone = (value: boolean) => {
    transitions = transitions.then(async () => {
      if (value === alone) return;
      alone = value;
      try {
        await events.aloneChanged(value);
      } catch (error) {
        console.error("[latchkey] rate limit: moving counters failed:", (error as Error).message);
      }
    });
    return transitions;
  };

  const notify = (target: pg.Client | null, message: string) => target?.query("SELECT pg_notify($1, $2)", [CHANNEL, `${message}:${instanceId}`]);

  async function countOthers(target: pg.Client): Promise<number> {
    const { rows } = await target.query(
      `SELECT count(*)::int AS others FROM pg_stat_activity
       WHERE datname = current_database() AND application_name = $1 AND pid <> pg_backend_pid()`,
      [PEER_NAME],
    );
    return rows[0].others;
  }

  listener.subscribe({
    channel: CHANNEL,
    notification(payload) {
      const [kind, from] = payload.split(/:(.*)/s);
      if (from === instanceId) return;
      if (kind === "hello") {
        // A newcomer: counters move to the database before it is told to go ahead.
        void setAlone(false)
          .then(() => notify(client, "ready"))
          .catch(() => {}); // the connection is going: `down` handles it, and the newcomer stops waiting after 1 s
      } else if (kind === "ready" && awaitingReady && --awaitingReady.count <= 0) {
        awaitingReady.done();
      }
    },
    async setUp(target, fail) {
      client = target; // a newcomer's `hello` heard from now on is answered
      await target.query(`SET application_name = '${PEER_NAME}'`);
      const others = await countOthers(target);
      if (others > 0) {
        const readies = new Promise<void>((resolve) => {
          awaitingReady = { count: others, done: resolve };
          setTimeout(resolve, READY_WAIT_MS).unref();
        });
        await notify(target, "hello");
        await readies;
        awaitingReady = null;
      }
      othersAtConnect = others;
      clearInterval(timer);
      timer = setInterval(() => {
        countOthers(target)
          .then((count) => (client === target ? setAlone(count === 0) : undefined))
          .catch((error) => fail((error as Error).message));
      }, checkMs);
      timer.unref();
    },
    up() {
      void setAlone(othersAtConnect === 0).then(settle);
    },
    down(reason) {
      clearInterval(timer);
      client = null;
      console.error(`[latchkey] rate limit: peer connection lost (${reason}); counting in the database until it is back`);
      void setAlone(false);
    },
  });
  return { settled };
}
