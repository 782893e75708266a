// Generates the Prisma clients for both databases (run by `npm install`). The app picks one at start-up from
// DATABASE_URL, so a deployment switches between SQLite and PostgreSQL without rebuilding.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const prisma = path.join(root, "node_modules", "prisma", "build", "index.js");
execFileSync(process.execPath, [path.join(root, "scripts", "sync-postgres-schema.mjs")], { stdio: "inherit" });
// The CLI resolves env("DATABASE_URL") before it will generate; any well-formed URL of the right kind will do.
const targets = [
  ["prisma/schema.prisma", "file:./data/app.db"],
  ["prisma/postgres/schema.prisma", "postgresql://localhost/unused"],
];
for (const [schema, placeholderUrl] of targets) {
  execFileSync(process.execPath, [prisma, "generate", "--schema", schema], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, DATABASE_URL: placeholderUrl, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
  });
}
console.log("generated Prisma clients for SQLite and PostgreSQL");
