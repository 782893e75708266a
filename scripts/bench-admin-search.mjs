// The admin search figure (issue 30), standalone until the scale benchmark (`npm run bench -- --scale`) folds it
// in: a scratch PostgreSQL database with 100 000 users, the built server, and GET /api/auth/admin/list-users for
// one page (25) of an e-mail prefix search, a name search, the banned filter and the newest-first listing.
// Prints the median and p95 of each over 50 requests. `node scripts/bench-admin-search.mjs [users]`; needs
// PostgreSQL (TEST_POSTGRES_URL) and a build (`npm run build`). Not a test: no assertion, figures only.
import pg from "pg";
import { createScratchDatabase } from "./lib/scratch-database.mjs";
import { spawnServer } from "./lib/spawn-server.mjs";

const USERS = Number(process.argv[2] ?? 100_000);
const ROUNDS = 50;
const database = await createScratchDatabase("postgres", "latchkey_bench_admin");
let server;
try {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query(
    `INSERT INTO "user" ("id", "name", "email", "emailVerified", "role", "banned", "createdAt", "updatedAt")
     SELECT 'u' || i, 'Person ' || i, 'person' || i || '@example.com', i % 3 = 0, 'user', i % 100 = 0,
            now() - (i || ' seconds')::interval, now()
     FROM generate_series(1, $1) AS i`,
    [USERS],
  );
  await client.query(`ANALYZE "user"`);
  server = await spawnServer({ env: { DATABASE_URL: database.url, AUTH_SECRET: "bench-secret-that-is-long-enough-0123456789", AUTH_RATE_LIMIT: "off", AUTH_TEST_PASSWORD_HASHING: "fast", AUTH_EMAIL_VERIFICATION: "off" }, timeoutMs: 60_000 });
  const headers = { "content-type": "application/json", origin: server.baseUrl };
  const signUp = await fetch(`${server.baseUrl}/api/auth/sign-up/email`, { method: "POST", headers, body: JSON.stringify({ name: "Bench Admin", email: "bench-admin@example.com", password: "correct horse battery staple" }) });
  const cookie = signUp.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  await client.query(`UPDATE "user" SET "role" = 'admin' WHERE "email" = 'bench-admin@example.com'`);
  await client.end();
  await new Promise((resolve) => setTimeout(resolve, 200)); // the change feed reaches the server's session cache

  const cases = {
    "e-mail prefix search": "searchValue=person4242&searchField=email&searchOperator=starts_with&limit=25",
    "e-mail contains search": "searchValue=son4242&searchField=email&searchOperator=contains&limit=25",
    "name search": "searchValue=Person 4242&searchField=name&limit=25",
    "banned filter": "filterField=banned&filterValue=true&limit=25",
    "newest first, page 10": "limit=25&offset=225",
  };
  console.log(`admin list-users over ${USERS} users on PostgreSQL, ${ROUNDS} requests each:`);
  for (const [name, query] of Object.entries(cases)) {
    const times = [];
    for (let i = 0; i < ROUNDS + 5; i++) {
      const start = performance.now();
      const response = await fetch(`${server.baseUrl}/api/auth/admin/list-users?${query}`, { headers: { cookie } });
      if (response.status !== 200) throw new Error(`${name}: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
      if (i >= 5) times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    console.log(`  ${name.padEnd(24)} median ${times[Math.floor(ROUNDS / 2)].toFixed(1)} ms, p95 ${times[Math.floor(ROUNDS * 0.95)].toFixed(1)} ms`);
  }
} finally {
  await server?.stop();
  await database.drop();
}
