// The build's routes, flattened, ranked and compiled ONCE, matched the way Remix matches them (react-router's
// flattenRoutes / rankRouteBranches / matchRouteBranch / compilePath / decodePath, @remix-run/router 1.x), so
// a path reaches the same route and the same params as through Remix's request handler. Remix redoes all of
// that on every request; here a static path is one Map lookup. See docs/decisions/023-api-dispatch.md.

const PARAM = /^:[\w-]+$/;
const DYNAMIC_SEGMENT_VALUE = 3;
const INDEX_ROUTE_VALUE = 2;
const EMPTY_SEGMENT_VALUE = 1;
const STATIC_SEGMENT_VALUE = 10;
const SPLAT_PENALTY = -2;

/**
 * @param {Record<string, {id: string, parentId?: string, path?: string, index?: boolean, caseSensitive?: boolean, module: object}>} manifest
 *   the build's `routes`
 */
export function createRouteTable(manifest) {
  const byParent = new Map();
  for (const route of Object.values(manifest)) {
    const parentId = route.parentId || "";
    if (!byParent.has(parentId)) byParent.set(parentId, []);
    byParent.get(parentId).push(route);
  }

  const branches = [];
  const flatten = (routes, parentsMeta, parentPath) => {
    routes.forEach((route, index) => {
      const relativePaths = route.path === "" || !route.path?.includes("?") ? [route.path || ""] : explodeOptionalSegments(route.path);
      for (const relative of relativePaths) {
        const meta = { relativePath: relative, caseSensitive: route.caseSensitive === true, childrenIndex: index, route };
        if (meta.relativePath.startsWith("/")) meta.relativePath = meta.relativePath.slice(parentPath.length);
        const path = joinPaths([parentPath, meta.relativePath]);
        const routesMeta = [...parentsMeta, meta];
        const children = route.index ? [] : (byParent.get(route.id) ?? []);
        if (children.length > 0) flatten(children, routesMeta, path);
        if (route.path == null && !route.index) continue;
        branches.push({ path, score: computeScore(path, route.index), routesMeta });
      }
    });
  };
  flatten(byParent.get("") ?? [], [], "");
  branches.sort((a, b) =>
    a.score !== b.score ? b.score - a.score : compareIndexes(a.routesMeta.map((m) => m.childrenIndex), b.routesMeta.map((m) => m.childrenIndex)),
  );
  for (const branch of branches) {
    branch.levels = branch.routesMeta.map((meta, i) => ({
      route: meta.route,
      ...compilePath(meta.relativePath, meta.caseSensitive, i === branch.routesMeta.length - 1),
    }));
  }

  /** The first ranked branch that matches a decoded pathname, as react-router's matchRoutes picks it. */
  function matchRanked(decoded, candidates = branches) {
    for (const branch of candidates) {
      const match = matchBranch(branch, decoded);
      if (match) return match;
    }
    return null;
  }

  // Fully static branches (no params, splats or case-sensitive levels) that win for their own path: a lookup
  // by the path folded the way the case-insensitive, trailing-slash-tolerant regular expressions fold it.
  const anyCaseSensitive = branches.some((b) => b.routesMeta.some((m) => m.caseSensitive));
  const staticMatches = new Map();
  if (!anyCaseSensitive) {
    for (const branch of branches) {
      if (!branch.routesMeta.every((m) => isStatic(m.relativePath))) continue;
      const winner = matchRanked(branch.path);
      if (winner?.branch === branch) staticMatches.set(foldStatic(branch.path), winner);
    }
  }

  return {
    branches,
    /**
     * The matched leaf route and its params for a URL pathname (as `new URL` gives it), or null.
     * @param {string} pathname
     * @param {(typeof branches)} [candidates] a subset of `branches`, still in rank order
     */
    match(pathname, candidates) {
      const decoded = pathname.includes("%") ? decodePath(pathname) : pathname;
      if (staticMatches.size > 0 && isAscii(decoded)) {
        const hit = staticMatches.get(foldStatic(decoded));
        if (hit) return { route: hit.route, params: {} };
      }
      const match = matchRanked(decoded, candidates);
      return match && { route: match.route, params: match.params };
    },
  };
}

function isStatic(path) {
  return !path.includes(":") && !path.includes("*");
}

/** Lower-case ASCII and no trailing slashes: what `^/a/b\/*$` with the `i` flag treats as the same path. */
function foldStatic(path) {
  return path.replace(/\/+$/, "").toLowerCase() || "/";
}

function isAscii(text) {
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]*$/.test(text);
}

function matchBranch(branch, pathname) {
  const matchedParams = {};
  let matchedPathname = "/";
  let leaf = null;
  for (const level of branch.levels) {
    const remaining = matchedPathname === "/" ? pathname : pathname.slice(matchedPathname.length) || "/";
    const match = matchCompiled(level, remaining);
    if (!match) return null;
    Object.assign(matchedParams, match.params);
    if (match.pathnameBase !== "/") matchedPathname = joinPaths([matchedPathname, match.pathnameBase]);
    leaf = level.route;
  }
  return { branch, route: leaf, params: matchedParams };
}

function matchCompiled({ matcher, paramNames }, pathname) {
  const match = pathname.match(matcher);
  if (!match) return null;
  const matchedPathname = match[0];
  let pathnameBase = matchedPathname.replace(/(.)\/+$/, "$1");
  const params = {};
  paramNames.forEach(({ paramName, isOptional }, index) => {
    const value = match[index + 1];
    if (paramName === "*") {
      const splatValue = value || "";
      pathnameBase = matchedPathname.slice(0, matchedPathname.length - splatValue.length).replace(/(.)\/+$/, "$1");
    }
    params[paramName] = isOptional && !value ? undefined : (value || "").replace(/%2F/g, "/");
  });
  return { params, pathnameBase };
}

function compilePath(path, caseSensitive, end) {
  const paramNames = [];
  let source =
    "^" +
    path
      .replace(/\/*\*?$/, "")
      .replace(/^\/*/, "/")
      .replace(/[\\.*+^${}|()[\]]/g, "\\$&")
      .replace(/\/:([\w-]+)(\?)?/g, (_, paramName, isOptional) => {
        paramNames.push({ paramName, isOptional: isOptional != null });
        return isOptional ? "/?([^\\/]+)?" : "/([^\\/]+)";
      });
  if (path.endsWith("*")) {
    paramNames.push({ paramName: "*" });
    source += path === "*" || path === "/*" ? "(.*)$" : "(?:\\/(.+)|\\/*)$";
  } else if (end) {
    source += "\\/*$";
  } else if (path !== "" && path !== "/") {
    source += "(?:(?=\\/|$))";
  }
  return { matcher: new RegExp(source, caseSensitive ? undefined : "i"), paramNames };
}

/** Each segment decoded, with decoded slashes kept encoded (react-router's decodePath). */
export function decodePath(value) {
  try {
    return value
      .split("/")
      .map((segment) => decodeURIComponent(segment).replace(/\//g, "%2F"))
      .join("/");
  } catch {
    return value;
  }
}

function joinPaths(paths) {
  return paths.join("/").replace(/\/\/+/g, "/");
}

function computeScore(path, index) {
  const segments = path.split("/");
  let score = segments.length;
  if (segments.some((s) => s === "*")) score += SPLAT_PENALTY;
  if (index) score += INDEX_ROUTE_VALUE;
  for (const segment of segments) {
    if (segment === "*") continue;
    score += PARAM.test(segment) ? DYNAMIC_SEGMENT_VALUE : segment === "" ? EMPTY_SEGMENT_VALUE : STATIC_SEGMENT_VALUE;
  }
  return score;
}

function compareIndexes(a, b) {
  const siblings = a.length === b.length && a.slice(0, -1).every((n, i) => n === b[i]);
  return siblings ? a[a.length - 1] - b[b.length - 1] : 0;
}

function explodeOptionalSegments(path) {
  const segments = path.split("/");
  if (segments.length === 0) return [];
  const [first, ...rest] = segments;
  const isOptional = first.endsWith("?");
  const required = first.replace(/\?$/, "");
  if (rest.length === 0) return isOptional ? [required, ""] : [required];
  const restExploded = explodeOptionalSegments(rest.join("/"));
  const result = restExploded.map((subpath) => (subpath === "" ? required : [required, subpath].join("/")));
  if (isOptional) result.push(...restExploded);
  return result.map((exploded) => (path.startsWith("/") && exploded === "" ? "/" : exploded));
}
