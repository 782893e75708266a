// The API's route table (ADR 035): made from app/routes/api.auth.* by scripts/api-routes.mjs, and matching a
// path to the route and params Remix's own matching gives, with Remix's own code on the other side: its
// flat-routes reading of app/routes and react-router's matchRoutes.
import { readFileSync } from "node:fs";
import path from "node:path";
import { matchRoutes, type AgnosticRouteObject } from "@remix-run/router";
// Remix's own reading of the route files, from its compiler
import { flatRoutes } from "@remix-run/dev/dist/config/flat-routes.js";
import { describe, expect, it, vi } from "vitest";
import { apiRoutesSource, GENERATED } from "../../scripts/api-routes.mjs";
import { apiRouteTable } from "~/http/api-routes.generated";
import { apiRoutesOf } from "~/http/api-routes.server";

const appDir = path.join(import.meta.dirname, "..", "..", "app");
type ManifestRoute = { id: string; parentId?: string; path?: string; index?: boolean; caseSensitive?: boolean };
const manifest: Record<string, ManifestRoute> = {
  root: { id: "root", path: "" },
  ...flatRoutes(appDir, ["**/.*", "**/*.test.{ts,tsx}"]),
};

/** The route tree as Remix's server runtime hands it to react-router. */
function tree(parentId: string): AgnosticRouteObject[] {
  return Object.values(manifest)
    .filter((route) => route.parentId === parentId)
    .map((route) => ({ id: route.id, path: route.path, index: route.index, caseSensitive: route.caseSensitive, children: route.index ? undefined : tree(route.id) }) as AgnosticRouteObject);
}
const remixRoutes = [{ id: "root", path: "", children: tree("root") } as AgnosticRouteObject];

function throughRemix(pathname: string) {
  const matches = matchRoutes(remixRoutes, pathname);
  const leaf = matches?.at(-1);
  return leaf ? { id: leaf.route.id, params: leaf.params } : null;
}

const table = apiRoutesOf(apiRouteTable);

describe("the API route table", () => {
  it("is what scripts/api-routes.mjs makes of app/routes now (run it, or `npm run build`, after adding a route)", () => {
    expect(readFileSync(GENERATED, "utf8")).toBe(apiRoutesSource());
  });

  it("holds every API route Remix finds, and nothing else", () => {
    const apiIds = Object.keys(manifest).filter((id) => id.startsWith("routes/api.auth."));
    expect([...table.ids].sort()).toEqual(apiIds.sort());
  });

  it("matches every path as Remix matches it: the route and its params", () => {
    vi.spyOn(console, "warn").mockImplementation(() => {}); // react-router's word on each malformed escape
    const paths = new Set<string>();
    for (const staticPath of Object.keys(apiRouteTable.static)) {
      paths.add(staticPath).add(`${staticPath}/`).add(`${staticPath}///`).add(staticPath.toUpperCase()).add(`${staticPath}/more`);
      paths.add(staticPath.replace(/k/g, "\u212a")); // the Kelvin sign, which toLowerCase would fold into "k"
      paths.add(staticPath.replace(/e/, "%65")).add(staticPath.replace(/\/(?=[^/]*$)/, "%2F"));
    }
    for (const { prefix } of apiRouteTable.parameterised) {
      for (const value of ["abc", "A%2Fb%20C", "x/", "x//", "x/y", "", "/", "%E2%82%AC", "%zz", "k%C3%A9y"]) paths.add(prefix + value);
      paths.add(prefix.toUpperCase() + "Value");
    }
    for (const other of ["/api/auth", "/api/auth/", "/api/auth//", "/API/AUTH/", "/api/auth//ok", "/api/auth/no/such/thing", "/api/auth/%2F", "/api/auth/%", "/api/auth/ü/"]) {
      paths.add(other);
    }
    for (const pathname of paths) {
      // as `new URL` hands the dispatch a pathname
      const encoded = new URL(pathname, "http://localhost").pathname;
      expect(table.match(encoded), encoded).toEqual(throughRemix(encoded));
    }
  });
});
