// Makes the API's route table, app/http/api-routes.generated.ts, from the file names app/routes/api.auth.*
// (ADR 035). Run by every build (`npm run build`, `npm start`, `npm test`, `npm run dev`); run it alone with
// `node scripts/api-routes.mjs`. It reads Remix's flat-route names only in the shapes the API uses, and refuses
// any other, so the table can never disagree with Remix in silence:
//   api.auth.sign-in.email      static:        /api/auth/sign-in/email
//   api.auth.delete-user_.x     static, "_" only keeps Remix from nesting the route: /api/auth/delete-user/x
//   api.auth.callback.$id       one parameter, the last segment: /api/auth/callback/:id
//   api.auth.$                  the splat: everything else under /api/auth
// and no other route may match under /api/auth (every other route's first segment is static and not "api").
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const GENERATED = path.join(projectRoot, "app", "http", "api-routes.generated.ts");
const ROUTE_EXTENSIONS = /\.(js|jsx|ts|tsx|md|mdx)$/;
const API = "api.auth.";

/** The table's source text for the route files in `routesDir` (throws on a name it cannot match simply). */
export function apiRoutesSource(routesDir = path.join(projectRoot, "app", "routes")) {
  const statics = [];
  const parameterised = [];
  let splat = null;
  for (const entry of readdirSync(routesDir, { withFileTypes: true })) {
    // remix.config.js's ignoredRouteFiles
    if (entry.name.startsWith(".") || /\.test\.tsx?$/.test(entry.name)) continue;
    if (entry.isFile() && !ROUTE_EXTENSIONS.test(entry.name)) continue;
    const name = entry.isFile() ? entry.name.replace(ROUTE_EXTENSIONS, "") : entry.name;
    const refuse = (why) => {
      throw new Error(`app/routes/${entry.name}: ${why} (scripts/api-routes.mjs, ADR 035)`);
    };
    if (!name.startsWith(API)) {
      const first = name.split(".")[0];
      if (!/^([a-z0-9-]+_?|_index)$/i.test(first) || /^api_?$/i.test(first)) {
        refuse("only API routes may match under /api/auth: a route's first segment must be static and not \"api\"");
      }
      continue;
    }
    if (!entry.isFile()) refuse("an API route is one file");
    const id = `routes/${name}`;
    const segments = name.slice(API.length).split(".");
    if (segments.length === 1 && segments[0] === "$") {
      splat = id;
      continue;
    }
    const last = segments.at(-1);
    const param = /^\$([\w-]+)$/.exec(last)?.[1];
    const fixed = param ? segments.slice(0, -1) : segments;
    if (!fixed.every((segment) => /^[a-z0-9-]+_?$/.test(segment))) {
      refuse("an API route's name is lower-case static segments, then at most one $parameter");
    }
    const base = ["", "api", "auth", ...fixed.map((segment) => segment.replace(/_$/, ""))].join("/");
    if (param) parameterised.push({ prefix: `${base}/`, param, id });
    else statics.push([base, id]);
  }
  const seen = new Set();
  for (const key of [...statics.map(([p]) => p), ...parameterised.map((p) => p.prefix)]) {
    if (seen.has(key)) throw new Error(`two API routes answer ${key} (scripts/api-routes.mjs)`);
    seen.add(key);
  }
  statics.sort(([a], [b]) => (a < b ? -1 : 1));
  parameterised.sort((a, b) => (a.prefix < b.prefix ? -1 : 1));
  return [
    "// Made by scripts/api-routes.mjs from the file names app/routes/api.auth.* (ADR 035): every build rewrites it",
    "// and tests/unit/api-routes.test.ts fails when it is out of date. Do not edit: add or rename the route file.",
    'import type { ApiRouteTable } from "~/http/api-routes.server";',
    "",
    "export const apiRouteTable: ApiRouteTable = {",
    "  static: {",
    ...statics.map(([p, id]) => `    ${JSON.stringify(p)}: ${JSON.stringify(id)},`),
    "  },",
    "  parameterised: [",
    ...parameterised.map(({ prefix, param, id }) => `    { prefix: ${JSON.stringify(prefix)}, param: ${JSON.stringify(param)}, id: ${JSON.stringify(id)} },`),
    "  ],",
    `  splat: ${JSON.stringify(splat)},`,
    "};",
    "",
  ].join("\n");
}

/** Writes the table when it changed (an unchanged file keeps its time, so it does not make the build stale). */
export function writeApiRoutes() {
  const source = apiRoutesSource();
  let current = null;
  try {
    current = readFileSync(GENERATED, "utf8");
  } catch {
    // not there yet
  }
  if (current !== source) writeFileSync(GENERATED, source);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeApiRoutes();
