// Whether any other process serves from this PostgreSQL database, so a lone instance can keep its rate-limit
// counters in memory (no write per request) and several share them in the database. ADR 025.
//
// Every process holds one connection named `latchkey-peer` (application_name) while it runs, and LISTENs on
// one channel. A process that connects says `hello`; the others, on hearing it, move their counters to the
// database and answer `ready`. A newcomer counts the other connections in pg_stat_activity and waits (at most
// a second) for that many `ready`s before it counts anything, so no count made in memory is missed. A process
// that leaves is noticed by the same count, every few seconds. Anything unclear (no connection yet, the
// connection lost) reads as "not alone": the shared database is always the safe answer.
import pg from "pg";

const CHANNEL = "latchkey_peers";
const APPLICATION_NAME = "latchkey-peer";
/** How often the peers are counted again (a process that left, a `hello` missed while reconnecting). */
export const PEER_CHECK_MS = 2_000;
/** How long a newcomer waits for the others' `ready` before counting anyway. */
const READY_WAIT_MS = 1_000;
const RECONNECT_MIN_MS = 200;
const RECONNECT_MAX_MS = 5_000;

export interface PeerEvents {
  /** Called with true once this process is known to be alone, false as soon as it may not be. */
  aloneChanged(alone: boolean): Promise<void> | void;
}

export interface Peers {
  /** Resolves once the first count is done (and the others have moved their counters), or after a second. */
  readonly settled: Promise<void>;
}

const instanceId = `${process.pid}-${Math.random().toString(36).slice(2, 10)}`;

export function watchPostgresPeers(connectionString: string, events: PeerEvents, { checkMs = PEER_CHECK_MS } = {}): Peers {
  let alone = false;
  let client: pg.Client | null = null;
  let delay = RECONNECT_MIN_MS;
  let timer: NodeJS.Timeout | undefined;
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

  const notify = (message: string) => client?.query("SELECT pg_notify($1, $2)", [CHANNEL, `${message}:${instanceId}`]);

  async function countOthers(target: pg.Client): Promise<number> {
    const { rows } = await target.query(
      `SELECT count(*)::int AS others FROM pg_stat_activity
       WHERE datname = current_database() AND application_name = $1 AND pid <> pg_backend_pid()`,
      [APPLICATION_NAME],
    );
    return rows[0].others;
  }

  async function check(target: pg.Client) {
    const others = await countOthers(target);
    if (target !== client) return;
    await setAlone(others === 0);
  }

  function connect() {
    const target = new pg.Client({ connectionString, application_name: APPLICATION_NAME, keepAlive: true });
    client = target;
    let down = false;
    const lost = (reason: string) => {
      if (down) return;
      down = true;
      clearInterval(timer);
      client = null;
      console.error(`[latchkey] rate limit: peer connection lost (${reason}); counting in the database until it is back`);
      void setAlone(false);
      target.end().catch(() => {});
      setTimeout(connect, delay).unref();
      delay = Math.min(delay * 2, RECONNECT_MAX_MS);
    };
    target.on("error", (error) => lost(error.message));
    target.on("end", () => lost("closed"));
    target.on("notification", (message) => {
      const [kind, from] = (message.payload ?? "").split(/:(.*)/s);
      if (from === instanceId) return;
      if (kind === "hello") {
        // A newcomer: counters move to the database before it is told to go ahead.
        void setAlone(false)
          .then(() => notify("ready"))
          .catch(() => {}); // the connection is going: `lost` handles it, and the newcomer stops waiting after 1 s
      } else if (kind === "ready" && awaitingReady && --awaitingReady.count <= 0) {
        awaitingReady.done();
      }
    });
    target
      .connect()
      .then(() => target.query(`LISTEN ${CHANNEL}`))
      .then(async () => {
        delay = RECONNECT_MIN_MS;
        const others = await countOthers(target);
        if (others > 0) {
          const readies = new Promise<void>((resolve) => {
            awaitingReady = { count: others, done: resolve };
            setTimeout(resolve, READY_WAIT_MS).unref();
          });
          await notify("hello");
          await readies;
          awaitingReady = null;
        }
        await setAlone(others === 0);
        settle();
        timer = setInterval(() => check(target).catch((error) => lost(error.message)), checkMs);
        timer.unref();
      })
      .catch((error) => lost(error.message));
  }

  connect();
  return { settled };
}
