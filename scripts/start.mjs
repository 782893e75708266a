// `npm start`: build if the sources changed, bring the database up to date, then serve.
// On a fresh clone that is all it takes: SQLite under data/, no .env needed.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { projectRoot } from "./lib/database-url.mjs";
import { ensureBuilt } from "./lib/build.mjs";
import { migrate } from "./lib/migrate.mjs";
import { installObservability } from "../server/observability/index.mjs";

process.chdir(projectRoot);
process.env.NODE_ENV ??= "production";
// Lines from here on are the log's (LOG_FORMAT), and the build loaded below finds the metrics recorder.
installObservability({ root: projectRoot });

// `--no-build` (used by `npm run dev`, where remix dev builds): only make sure the Prisma clients exist.
ensureBuilt({ build: !process.argv.includes("--no-build") });

// Configuration first: loading the build parses and checks every setting, and an invalid one must stop start-up
// before any migration touches the database. server.mjs then reuses the loaded build.
try {
  await import(pathToFileURL(path.join(projectRoot, "build", "index.js")).href);
} catch (error) {
  console.error(error?.name === "ConfigurationError" ? `[latchkey] ${error.message}` : error);
  process.exit(1);
}

try {
  const applied = await migrate(process.env.DATABASE_URL);
  if (applied.length) console.log(`[latchkey] applied migrations: ${applied.join(", ")}`);
} catch (error) {
  console.error(`[latchkey] could not bring the database up to date: ${error.message}`);
  process.exit(1);
}

await import("../server.mjs");
