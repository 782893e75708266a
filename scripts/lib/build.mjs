// Builds the app when the sources changed since the last build (or when there is no build yet).
// Shared by `npm start` and `npm run bench`.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { writeApiRoutes } from "../api-routes.mjs";
import { projectRoot } from "./database-url.mjs";

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "generated") continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/**
 * Generates the Prisma clients if missing and the API's route table (ADR 035) and, unless `build` is false,
 * rebuilds when app/ is newer than build/. Returns true if it built.
 */
export function ensureBuilt({ build = true, log = console.log } = {}) {
  const at = (p) => path.join(projectRoot, p);
  if (!existsSync(at("app/generated/prisma-sqlite")) || !existsSync(at("app/generated/prisma-postgres"))) {
    execFileSync(process.execPath, [at("scripts/generate-prisma.mjs")], { stdio: "inherit", cwd: projectRoot });
  }
  writeApiRoutes();
  if (!build) return false;
  const serverBuild = at("build/index.js");
  const stale = !existsSync(serverBuild) || newestMtime(at("app")) > statSync(serverBuild).mtimeMs;
  if (!stale) return false;
  log("[latchkey] building…");
  execFileSync(process.execPath, [at("node_modules/@remix-run/dev/dist/cli.js"), "build"], { stdio: "inherit", cwd: projectRoot });
  return true;
}
