// The `route` of a request's metric and log line: the template of the route that answers it
// (`/api/auth/sign-in/email`, `/reset-password/:token`, `*` for a splat), never the raw path, so a token in a
// path never reaches a label or a line and a scanner's random paths add no series (issue 40).
import { matchRoutes } from "@remix-run/router"; // the matcher Remix itself uses (a dependency of @remix-run/node)

/** Every file the static handlers served. */
export const STATIC_ROUTE = "static";
/** Every path no route serves (a 404). */
export const UNMATCHED_ROUTE = "unmatched";
/** The OpenID provider's paths under /api/auth/oauth2 (ADR 046), one value. */
export const OIDC_ROUTE = "/api/auth/oauth2/*";

const API_PREFIX = "/api/auth";
/** Distinct page paths whose label is kept; beyond it a path is matched each time (a scan cannot grow memory). */
const REMEMBERED_PATHS = 1_000;

/** Each route's full template: its ancestors' paths joined, "/" for the root and index routes. */
export function routeTemplates(routes) {
  const templates = new Map();
  const templateOf = (id) => {
    if (templates.has(id)) return templates.get(id);
    const route = routes[id];
    const parent = route.parentId ? templateOf(route.parentId) : "/";
    const joined = route.path ? `${parent.replace(/\/$/, "")}/${route.path}` : parent;
    const template = joined.replace(/\/+/g, "/");
    templates.set(id, template);
    return template;
  };
  for (const id of Object.keys(routes)) templateOf(id);
  return templates;
}

/** The route objects matchRoutes takes, nested as the build's flat table says; the API's routes left out. */
function pageRouteTree(routes) {
  const byParent = new Map();
  for (const route of Object.values(routes)) {
    if (route.id.startsWith("routes/api.auth.")) continue;
    const siblings = byParent.get(route.parentId) ?? [];
    siblings.push(route);
    byParent.set(route.parentId, siblings);
  }
  const nest = (parentId) =>
    (byParent.get(parentId) ?? []).map((route) => ({
      id: route.id,
      path: route.path,
      index: route.index,
      caseSensitive: route.caseSensitive,
      children: route.index ? undefined : nest(route.id),
    }));
  return nest(undefined);
}

/**
 * @param {{ routes: Record<string, { id: string, parentId?: string, path?: string, index?: boolean, caseSensitive?: boolean }> }} build
 * @param {{ match(pathname: string): { id: string } | null } | undefined} apiRoutes the API dispatch's table (ADR 035)
 * @returns {(pathname: string) => string}
 */
export function createRouteLabels(build, apiRoutes) {
  const templates = routeTemplates(build.routes);
  const pages = pageRouteTree(build.routes);
  const remembered = new Map();

  function pageLabel(pathname) {
    const matches = matchRoutes(pages, pathname);
    if (!matches) return UNMATCHED_ROUTE;
    const last = matches[matches.length - 1].route.id;
    // The root alone matches nothing of its own ("/" is the index route's).
    return last === "root" && pathname !== "/" ? UNMATCHED_ROUTE : templates.get(last);
  }

  return function routeLabel(pathname) {
    if (pathname.length >= API_PREFIX.length && pathname.slice(0, API_PREFIX.length).toLowerCase() === API_PREFIX) {
      const match = apiRoutes?.match(pathname);
      if (match) return templates.get(match.id) ?? UNMATCHED_ROUTE;
    }
    let label = remembered.get(pathname);
    if (label === undefined) {
      label = pageLabel(pathname);
      // Only paths of routes without parameters: a path holding a token is not kept, even in memory.
      if (remembered.size < REMEMBERED_PATHS && label !== UNMATCHED_ROUTE && !/[:*]/.test(label)) remembered.set(pathname, label);
    }
    return label;
  };
}
