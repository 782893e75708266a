// `npm run db:migration -- <name>`: writes the SQL for a change to prisma/schema.prisma as a new migration for
// BOTH databases (prisma/migrations and prisma/postgres/migrations), from the difference between the schema
// committed at git HEAD (or --from <ref>) and the working copy. Works offline: it uses Prisma's JS schema engine,
// which can diff two schema files without a database (docs/decisions/001-stack-and-prisma.md).
// PostgreSQL needs a reachable server for the CLI's driver adapter: TEST_POSTGRES_URL or the local default.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { projectRoot } from "./lib/database-url.mjs";
import { postgresSchemaFrom } from "./sync-postgres-schema.mjs";

process.chdir(projectRoot);
const args = process.argv.slice(2);
const fromIndex = args.indexOf("--from");
const fromRef = fromIndex >= 0 ? args.splice(fromIndex, 2)[1] : "HEAD";
const name = args[0];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: npm run db:migration -- <name_in_snake_case> [--from <git ref>]");
  process.exit(2);
}

const prisma = ["node_modules/prisma/build/index.js"];
const postgresUrl = process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const work = mkdtempSync(path.join(tmpdir(), "latchkey-migration-"));
const currentSqlite = readFileSync("prisma/schema.prisma", "utf8");
const previousSqlite = execFileSync("git", ["show", `${fromRef}:prisma/schema.prisma`], { encoding: "utf8" });
execFileSync(process.execPath, ["scripts/sync-postgres-schema.mjs"], { stdio: "inherit" });

function diff(kind, previous, currentPath) {
  const previousPath = path.join(work, `${kind}-previous.prisma`);
  writeFileSync(previousPath, previous);
  const config = kind === "postgres" ? ["--config", "prisma/postgres/prisma.config.ts"] : [];
  return execFileSync(
    process.execPath,
    [...prisma, "migrate", "diff", ...config, "--from-schema-datamodel", previousPath, "--to-schema-datamodel", currentPath, "--script"],
    { encoding: "utf8", env: { ...process.env, DATABASE_URL: kind === "postgres" ? postgresUrl : `file:${path.join(work, "unused.db")}` } },
  );
}

const sqliteSql = diff("sqlite", previousSqlite, "prisma/schema.prisma");
const postgresSql = diff("postgres", postgresSchemaFrom(previousSqlite), "prisma/postgres/schema.prisma");
if (/This is an empty migration/.test(sqliteSql) && currentSqlite === previousSqlite) {
  console.error(`prisma/schema.prisma is the same as at ${fromRef}: nothing to migrate.`);
  process.exit(1);
}

const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
for (const [dir, sql] of [
  ["prisma/migrations", sqliteSql],
  ["prisma/postgres/migrations", postgresSql],
]) {
  const folder = path.join(dir, `${stamp}_${name}`);
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, "migration.sql"), sql);
  console.log(`wrote ${folder}/migration.sql`);
}
console.log("Review both files, then run the tests: the schema-drift test checks that both databases end up alike.");
