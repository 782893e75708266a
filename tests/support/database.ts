// Fresh, uniquely named databases for tests; dropped afterwards. Never the development database.
import { createScratchDatabase } from "../../scripts/lib/scratch-database.mjs";

export type DatabaseKind = "sqlite" | "postgres";

export interface TestDatabase {
  kind: DatabaseKind;
  url: string;
  drop(): Promise<void>;
}

export function databaseKindUnderTest(): DatabaseKind {
  return process.env.TEST_DATABASE === "postgres" ? "postgres" : "sqlite";
}

export async function createTestDatabase(kind: DatabaseKind = databaseKindUnderTest()): Promise<TestDatabase> {
  return (await createScratchDatabase(kind, "latchkey_test")) as TestDatabase;
}
