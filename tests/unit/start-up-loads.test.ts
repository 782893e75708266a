// Start-up loads only what the configuration uses (docs/decisions/026-load-what-is-used.md): the WebAuthn,
// Redis, SMTP, QR-code and PostgreSQL libraries cost ~1.2 s of CPU to load, paid by every process. The built
// server is imported in a child process whose module resolution hook writes down each package it resolves.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../../scripts/lib/build.mjs";

const projectRoot = path.join(import.meta.dirname, "..", "..");
const OPTIONAL = ["@simplewebauthn/server", "ioredis", "nodemailer", "qrcode", "pg", "@prisma/adapter-pg", "oidc-provider"];

const RESOLVE_HOOK = `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (resolved.url.includes("/node_modules/")) appendFileSync(process.env.LOADED_LOG, resolved.url + "\\n");
  return resolved;
}`;

const IMPORT_BUILD = `
import { register } from "node:module";
import { pathToFileURL } from "node:url";
register("data:text/javascript," + encodeURIComponent(process.env.RESOLVE_HOOK));
await import(pathToFileURL(process.cwd() + "/build/index.js").href);
// What start-up loads in the background: the packages a test expects are waited for (a busy machine may take
// seconds), then a second more for anything else begun beside them.
const { existsSync, readFileSync } = await import("node:fs");
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const awaited = (process.env.AWAIT_LOADED || "").split(",").filter(Boolean);
const seen = (name) => existsSync(process.env.LOADED_LOG) && readFileSync(process.env.LOADED_LOG, "utf8").includes("/node_modules/" + name + "/");
for (let waited = 0; waited < 20_000 && !awaited.every(seen); waited += 50) await sleep(50);
await sleep(1000);
process.exit(0);
`;

let dir: string;
beforeAll(() => {
  ensureBuilt({ log: () => {} });
  dir = mkdtempSync(path.join(os.tmpdir(), "latchkey-start-up-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let runs = 0;
function packagesLoadedWith(env: Record<string, string>): string[] {
  const log = path.join(dir, `loaded-${(runs += 1)}.txt`);
  execFileSync(process.execPath, ["--input-type=module", "-e", IMPORT_BUILD], {
    cwd: projectRoot,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      AUTH_SECRET: "start-up-test-secret-0123456789-0123456789",
      BASE_URL: "http://localhost:3000",
      DATABASE_URL: `file:${path.join(dir, "app.db")}`,
      RESOLVE_HOOK,
      LOADED_LOG: log,
      ...env,
    },
  });
  const packageOf = (url: string) => url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//)?.[1];
  return [...new Set(readFileSync(log, "utf8").split("\n").map(packageOf).filter((name): name is string => Boolean(name)))];
}

describe("start-up", () => {
  it("loads none of the optional libraries on SQLite without Redis or SMTP", () => {
    const loaded = packagesLoadedWith({});
    expect(loaded).toContain("@prisma/adapter-better-sqlite3"); // the listing works
    for (const name of OPTIONAL) expect(loaded, name).not.toContain(name);
  }, 30_000);

  it("loads Redis and SMTP's libraries from the start where they are configured", () => {
    const loaded = packagesLoadedWith({ REDIS_URL: "redis://127.0.0.1:1", SMTP_URL: "smtp://127.0.0.1:1", AWAIT_LOADED: "ioredis,nodemailer" });
    expect(loaded).toContain("ioredis");
    expect(loaded).toContain("nodemailer");
    for (const name of ["@simplewebauthn/server", "qrcode", "pg", "@prisma/adapter-pg"]) expect(loaded, name).not.toContain(name);
  }, 30_000);
});
