// `npm start`: build if the sources changed, bring the database up to date, then serve.
// On a fresh clone that is all it takes: SQLite under data/, no .env needed.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { projectRoot } from "./lib/database-url.mjs";
import { migrate } from "./lib/migrate.mjs";

process.chdir(projectRoot);
process.env.NODE_ENV ??= "production";

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "generated") continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

if (!existsSync("app/generated/prisma-sqlite") || !existsSync("app/generated/prisma-postgres")) {
  execFileSync(process.execPath, ["scripts/generate-prisma.mjs"], { stdio: "inherit" });
}
const serverBuild = "build/index.js";
const stale = !existsSync(serverBuild) || newestMtime("app") > statSync(serverBuild).mtimeMs;
if (stale && !process.argv.includes("--no-build")) {
  console.log("[latchkey] building…");
  execFileSync(process.execPath, ["node_modules/@remix-run/dev/dist/cli.js", "build"], { stdio: "inherit" });
}

try {
  const applied = await migrate(process.env.DATABASE_URL);
  if (applied.length) console.log(`[latchkey] applied migrations: ${applied.join(", ")}`);
} catch (error) {
  console.error(`[latchkey] could not bring the database up to date: ${error.message}`);
  process.exit(1);
}

await import("../server.mjs");
