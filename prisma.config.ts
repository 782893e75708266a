// Prisma CLI configuration. On these machines Prisma's engine binaries cannot be downloaded, so the CLI runs on
// its JavaScript engine through the better-sqlite3 driver adapter (docs/decisions/001-stack-and-prisma.md).
// On a machine with internet access, delete the `engine`/`adapter` lines to use the classic engine and
// `prisma migrate dev`; the migrations it writes are identical.
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";

const sqliteUrl = process.env.DATABASE_URL?.startsWith("file:")
  ? process.env.DATABASE_URL
  : `file:${path.join(import.meta.dirname, "data", "app.db")}`;

export default defineConfig({
  schema: "prisma/schema.prisma",
  experimental: { adapter: true },
  engine: "js",
  adapter: async () => new PrismaBetterSQLite3({ url: sqliteUrl }),
});
