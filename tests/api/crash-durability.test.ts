// What the server acknowledged survives `kill -9`: sign-ups and profile updates run concurrently, the process
// is killed with SIGKILL in the middle of them, and after a restart on the same database every write that got
// a 200 is there (the session cache is only ever a copy). docs/decisions/024-session-cache-and-invalidation.md.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, uniqueEmail } from "../support/client";
import { createTestDatabase, type TestDatabase } from "../support/database";
import { startServer, type TestServer } from "../support/server";
import { query } from "../support/sql";

const WRITERS = 6;
/** The kill comes once this many writes were acknowledged (or after LOAD_LIMIT_MS), with more in flight. */
const KILL_AFTER_ACKNOWLEDGED = 30;
const LOAD_LIMIT_MS = 15_000;

let database: TestDatabase;
let servers: TestServer[] = [];
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  for (const server of servers) await server.stop();
  await database?.drop();
});

interface Account {
  email: string;
  client: ApiClient;
  /** The last name the server acknowledged. */
  name: string;
  /** A name sent but not acknowledged when the server died: it may or may not have been committed. */
  inFlight?: string;
}

describe("SIGKILL under write load", () => {
  it("loses no acknowledged sign-up or profile update", async () => {
    const first = await startServer({ database });
    servers.push(first);
    const accounts: Account[] = [];
    let killed = false;
    let acknowledged = 0;

    async function writer(id: number) {
      for (let i = 0; !killed; i++) {
        try {
          const email = uniqueEmail(`crash${id}`);
          const client = new ApiClient(first.baseUrl);
          const signedUp = await client.post("/api/auth/sign-up/email", { name: `w${id}-${i}-0`, email, password: PASSWORD });
          if (signedUp.status !== 200) continue;
          acknowledged++;
          const account: Account = { email, client, name: `w${id}-${i}-0` };
          accounts.push(account);
          for (let n = 1; n <= 8 && !killed; n++) {
            const name = `w${id}-${i}-${n}`;
            account.inFlight = name;
            const updated = await client.post("/api/auth/update-user", { name });
            account.inFlight = undefined; // answered: committed only if acknowledged
            if (updated.status === 200) {
              account.name = name;
              acknowledged++;
            }
          }
        } catch {
          // the connection died with the process: that write was never acknowledged
        }
      }
    }

    const load = Promise.all(Array.from({ length: WRITERS }, (_, id) => writer(id)));
    const started = Date.now();
    while (acknowledged < KILL_AFTER_ACKNOWLEDGED && Date.now() - started < LOAD_LIMIT_MS) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await first.stop(); // SIGKILL, with writers still sending
    killed = true;
    await load;
    expect(acknowledged).toBeGreaterThanOrEqual(KILL_AFTER_ACKNOWLEDGED);
    expect(accounts.some((account) => !account.name.endsWith("-0"))).toBe(true);

    const second = await startServer({ database });
    servers.push(second);
    const rows = await query<{ email: string; name: string }>(database, `SELECT "email", "name" FROM "user"`);
    const stored = new Map(rows.map((row) => [row.email, row.name]));
    for (const account of accounts) {
      // The acknowledged name, or a later one whose answer the kill cut off after its commit.
      const allowed = [account.name, ...(account.inFlight ? [account.inFlight] : [])];
      expect(allowed, account.email).toContain(stored.get(account.email));
    }
    // And the restarted server serves them.
    const [last] = accounts.slice(-1);
    const signedIn = await new ApiClient(second.baseUrl).post("/api/auth/sign-in/email", { email: last.email, password: PASSWORD });
    expect(signedIn.status).toBe(200);
    expect([last.name, last.inFlight]).toContain(signedIn.body.user.name);
  });
});
