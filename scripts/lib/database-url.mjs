// Which database a DATABASE_URL names. Shared by the start-up script, the migration runner and the app.
import path from "node:path";
import { fileURLToPath } from "node:url";

export const projectRoot = path.dirname(path.dirname(path.dirname(fileURLToPath(import.meta.url))));
export const defaultSqliteFile = path.join(projectRoot, "data", "app.db");

/** @returns {{ kind: "sqlite", file: string, url: string } | { kind: "postgres", url: string }} */
export function describeDatabaseUrl(databaseUrl) {
  const url = databaseUrl?.trim() || `file:${defaultSqliteFile}`;
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: "postgres", url };
  if (url.startsWith("file:")) {
    const file = url.slice("file:".length).split("?")[0];
    return { kind: "sqlite", file: path.resolve(projectRoot, file), url };
  }
  throw new Error(`DATABASE_URL must start with file:, postgres:// or postgresql:// (got "${url.split(":")[0]}:…")`);
}
