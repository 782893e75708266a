// Better Auth 1.7 as the benchmark's reference: email and password, the cookie cache off, its rate limit off
// (on with BENCH_RATE_LIMIT=on, for the "under attack" figure),
// its own tables created by its own migration API, on the same kind of database as the app under test
// (better-sqlite3 for a file: URL, a pg Pool for postgres://). Run as its own process by scripts/bench.mjs:
//   node scripts/lib/better-auth-bench-server.mjs  (env: DATABASE_URL, PORT, BASE_URL, AUTH_SECRET)
// Prints "listening" once it answers.
import http from "node:http";
import { fileURLToPath } from "node:url";
import { betterAuth } from "better-auth";
import { getMigrations } from "better-auth/db/migration";
import { toNodeHandler } from "better-auth/node";

const databaseUrl = process.env.DATABASE_URL ?? "";
let database;
if (/^postgres(ql)?:/.test(databaseUrl)) {
  const { default: pg } = await import("pg");
  database = new pg.Pool({ connectionString: databaseUrl, max: 10 });
} else {
  const { default: Database } = await import("better-sqlite3");
  const file = databaseUrl.startsWith("file:") ? (databaseUrl.startsWith("file://") ? fileURLToPath(databaseUrl) : databaseUrl.slice(5)) : databaseUrl;
  database = new Database(file);
  database.pragma("journal_mode = WAL");
}

const auth = betterAuth({
  database,
  secret: process.env.AUTH_SECRET,
  baseURL: process.env.BASE_URL,
  emailAndPassword: { enabled: true },
  session: { cookieCache: { enabled: false } },
  // On only for the "under attack" figure (BENCH_RATE_LIMIT=on), keyed on X-Forwarded-For as ours is there.
  rateLimit: { enabled: process.env.BENCH_RATE_LIMIT === "on" },
  advanced: { ipAddress: { ipAddressHeaders: ["x-forwarded-for"] } },
  telemetry: { enabled: false },
  logger: { disabled: true },
});
const { runMigrations } = await getMigrations(auth.options);
await runMigrations();

const server = http.createServer(toNodeHandler(auth));
server.keepAliveTimeout = 5_000;
server.listen(Number(process.env.PORT), "127.0.0.1", () => console.log("listening"));
const stop = () => server.close(() => process.exit(0)) && setTimeout(() => process.exit(0), 1_000).unref();
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
