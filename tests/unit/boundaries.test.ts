// The layers of app/ and the rules between them (docs/decisions/033-layers-and-boundaries.md):
//   the database layer  ←  the auth domain  ←  the HTTP and page layer  ←  routes and components
// No module imports its way into a circle, app/auth never reaches up into app/http, app/routes or
// app/components, and the database layer imports nothing but itself and the configuration. Every static import
// counts, `import type` too: a type-only edge makes no circle at run time, but it still says which side knows
// the other, and `madge --circular` (the measure) counts it. A failure names the circle or the edge.
// The second half shows on a small made-up app that the checker does catch each of these.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cyclesIn, importGraph, type Edge } from "../support/import-graph";

const APP = path.join(import.meta.dirname, "..", "..", "app");

const under = (folder: string) => (module: string) => module.startsWith(`${folder}/`);
const isAuth = under("auth");
const isAboveAuth = (module: string) => ["http", "routes", "components"].some((folder) => under(folder)(module));
/** The Prisma client, its generated code, the one LISTEN connection and the change feed the database owns. */
const isDatabaseLayer = (module: string) =>
  ["db.server.ts", "postgres-listener.server.ts", "sqlite-statements.server.ts"].includes(module) || under("change-feed")(module) || under("generated")(module);
const isConfiguration = (module: string) => module === "env.server.ts";
/** The metrics recorder and the database-failure counter (ADR 062): they hold no app state and import no layer. */
const isMetricsRecorder = (module: string) => ["observability/metrics.server.ts", "observability/database-errors.server.ts"].includes(module);

/** Prisma's generated client refers to itself in circles of types; it is regenerated, not arranged by us. */
const isOurs = (edge: Edge) => !under("generated")(edge.from) && !under("generated")(edge.to);

const shown = (edge: Edge) => `app/${edge.from} → app/${edge.to}${edge.typeOnly ? " (import type)" : ""}`;

function circles(edges: Edge[]): string[] {
  const typeOnly = new Set(edges.filter((edge) => edge.typeOnly).map((edge) => `${edge.from}\n${edge.to}`));
  return cyclesIn(edges.filter(isOurs)).map((cycle) =>
    cycle.map((module, i) => (i > 0 && typeOnly.has(`${cycle[i - 1]}\n${module}`) ? `app/${module} (by import type)` : `app/${module}`)).join(" → "),
  );
}

/** app/auth reaches up into a layer that is built on it. */
const authReachingUp = (edges: Edge[]) => edges.filter((edge) => isAuth(edge.from) && isAboveAuth(edge.to)).map(shown);

/** The database layer imports something other than itself, the configuration and the metrics recorder. */
const databaseReachingUp = (edges: Edge[]) =>
  edges.filter((edge) => isDatabaseLayer(edge.from) && !isDatabaseLayer(edge.to) && !isConfiguration(edge.to) && !isMetricsRecorder(edge.to)).map(shown);

describe("app/", () => {
  const edges = importGraph(APP);

  it("reads the imports (so the rules below have something to hold)", () => {
    expect(edges.length, "edges found").toBeGreaterThan(500);
    for (const layer of [isAuth, isAboveAuth, isDatabaseLayer]) expect(edges.some((edge) => layer(edge.from)), `importers in ${layer.name}`).toBe(true);
  });

  it("has no import circle", () => {
    expect(circles(edges), "import circles").toEqual([]);
  });

  it("app/auth imports nothing from app/http, app/routes or app/components", () => {
    expect(authReachingUp(edges), "imports from app/auth upwards").toEqual([]);
  });

  it("the database layer imports nothing but itself and the configuration (not app/auth)", () => {
    expect(databaseReachingUp(edges), "imports from the database layer upwards").toEqual([]);
  });
});

describe("the checker, on a made-up app with each fault", () => {
  const FIXTURE: Record<string, string> = {
    // The fault this issue started from: the client imports a feature of auth, which imports the client back.
    "db.server.ts": `import { env } from "~/env.server";\nimport { remember } from "~/auth/cache.server";\nexport const db = { env, remember };`,
    "env.server.ts": `export const env = {};`,
    "auth/cache.server.ts": `import type { Row } from "~/db.server";\nexport const remember = (row: Row) => row;`,
    // Auth reaching up into the page layer (relative specifier), which imports auth back through an index file.
    "auth/words.server.ts": `import { title } from "../http/page.server";\nexport const words = title;`,
    "http/page.server.ts": `import { session } from "~/auth";\nexport const title = session;`,
    "auth/index.ts": `export { words as session } from "./words.server";`,
    // What does not count: packages, dynamic import(), a type query.
    "routes/home.tsx": `import { z } from "zod";\nimport { title } from "~/http/page.server";\nexport const load = () => import("~/db.server");\nexport type T = typeof import("~/auth");\nexport default () => <p>{title}{String(z)}</p>;`,
  };
  let root: string;
  let edges: Edge[];
  beforeAll(() => {
    root = mkdtempSync(path.join(os.tmpdir(), "latchkey-boundaries-"));
    for (const [file, source] of Object.entries(FIXTURE)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), source);
    }
    edges = importGraph(root);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("resolves ~/, relative and index specifiers, and leaves out packages, import() and type queries", () => {
    expect(edges).toEqual([
      { from: "auth/cache.server.ts", to: "db.server.ts", typeOnly: true },
      { from: "auth/index.ts", to: "auth/words.server.ts", typeOnly: false },
      { from: "auth/words.server.ts", to: "http/page.server.ts", typeOnly: false },
      { from: "db.server.ts", to: "auth/cache.server.ts", typeOnly: false },
      { from: "db.server.ts", to: "env.server.ts", typeOnly: false },
      { from: "http/page.server.ts", to: "auth/index.ts", typeOnly: false },
      { from: "routes/home.tsx", to: "http/page.server.ts", typeOnly: false },
    ]);
  });

  it("names each circle, a type-only edge included", () => {
    expect(circles(edges)).toEqual([
      "app/auth/cache.server.ts → app/db.server.ts (by import type) → app/auth/cache.server.ts",
      "app/auth/index.ts → app/auth/words.server.ts → app/http/page.server.ts → app/auth/index.ts",
    ]);
  });

  it("names auth's edge up into the page layer", () => {
    expect(authReachingUp(edges)).toEqual(["app/auth/words.server.ts → app/http/page.server.ts"]);
  });

  it("names the database layer's edge into auth, and allows the configuration", () => {
    expect(databaseReachingUp(edges)).toEqual(["app/db.server.ts → app/auth/cache.server.ts"]);
  });
});
