// Writes prisma/postgres/schema.prisma from prisma/schema.prisma (the source of truth).
// The two differ only in the datasource provider and the generated client's folder.
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

export function postgresSchemaFrom(sqliteSchema) {
  return sqliteSchema
    .replace('output          = "../app/generated/prisma-sqlite"', 'output          = "../../app/generated/prisma-postgres"')
    .replace('provider = "sqlite"', 'provider = "postgresql"')
    .replace(
      /^\/\/ The data model\.[^\n]*\n(\/\/[^\n]*\n)*/,
      "// GENERATED from prisma/schema.prisma by scripts/sync-postgres-schema.mjs — edit that file instead.\n",
    );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const source = readFileSync(path.join(root, "prisma/schema.prisma"), "utf8");
  mkdirSync(path.join(root, "prisma/postgres"), { recursive: true });
  writeFileSync(path.join(root, "prisma/postgres/schema.prisma"), postgresSchemaFrom(source));
  console.log("wrote prisma/postgres/schema.prisma");
}
