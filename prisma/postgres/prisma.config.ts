// Prisma CLI configuration for the PostgreSQL schema (see ../../prisma.config.ts for why the JS engine).
// Used only to generate the client and write migrations; start-up applies migrations itself
// (docs/decisions/001-stack-and-prisma.md).
import { defineConfig } from "prisma/config";
import { PrismaPg } from "@prisma/adapter-pg";

export default defineConfig({
  schema: "schema.prisma",
  experimental: { adapter: true },
  engine: "js",
  adapter: async () => new PrismaPg({ connectionString: process.env.DATABASE_URL ?? "postgresql://localhost/postgres" }),
});
