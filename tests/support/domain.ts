// For tests that call domain modules directly (no HTTP): a fresh database, and the environment the modules
// read when first imported. Import domain modules only after `openDomain()` resolves.
import { createTestDatabase, type DatabaseKind, type TestDatabase } from "./database";

export interface DomainHandle {
  database: TestDatabase;
  db: typeof import("~/db.server").db;
  close(): Promise<void>;
}

export async function openDomain(kind?: DatabaseKind): Promise<DomainHandle> {
  const database = await createTestDatabase(kind);
  process.env.DATABASE_URL = database.url;
  process.env.AUTH_SECRET ??= "domain-test-secret-0123456789-abcdefghij";
  // Cheap test-only password hashing (ADR 032) unless the test asked for production hashing first.
  process.env.AUTH_TEST_PASSWORD_HASHING ??= "fast";
  process.env.BASE_URL = "http://localhost:3000"; // Vitest puts Vite's own BASE_URL ("/") in process.env
  const { db } = await import("~/db.server");
  return {
    database,
    db,
    async close() {
      // Work a test's calls left running after their answer (mails, events) finishes against this database.
      await (await import("~/background-work.server")).backgroundWorkSettled();
      await db.$disconnect();
      await database.drop();
    },
  };
}
