// Which /api/auth route answers a path, for the production dispatch (server/api-dispatch.mjs, ADR 035). The
// table is made at build time from the file names app/routes/api.auth.* (scripts/api-routes.mjs), which have
// three shapes only, so matching them needs none of Remix's ranking, and gives what Remix's gives
// (tests/unit/api-routes.test.ts holds the two side by side): a static path wins, in any ASCII case and with
// any trailing slashes; else a route whose last segment is a parameter; else the splat.

export interface ApiRouteTable {
  /** Path (lower case, no trailing slash) → route id. */
  static: Readonly<Record<string, string>>;
  /** Routes whose last segment is their one parameter: the path before it (lower case, ending in "/"). */
  parameterised: ReadonlyArray<{ prefix: string; param: string; id: string }>;
  /** `api.auth.$`: the rest of the path under /api/auth, as the `*` parameter. */
  splat: string | null;
}

export interface ApiRouteMatch {
  id: string;
  params: Record<string, string>;
}

export interface ApiRoutes {
  /** Every route id in the table. */
  ids: ReadonlySet<string>;
  /** The route and params for a URL's pathname (as `new URL` gives it), or null. */
  match(pathname: string): ApiRouteMatch | null;
}

/** The splat's expression, as react-router compiles `api/auth/*`. */
const SPLAT = /^\/api\/auth(?:\/(.+)|\/*)$/i;

export function apiRoutesOf(table: ApiRouteTable): ApiRoutes {
  const statics = new Map(Object.entries(table.static));
  const ids = new Set([...statics.values(), ...table.parameterised.map((route) => route.id), ...(table.splat ? [table.splat] : [])]);
  return {
    ids,
    match(pathname) {
      const decoded = pathname.includes("%") ? decodePath(pathname) : pathname;
      const trimmed = decoded.replace(/\/+$/, "");
      const folded = foldAscii(trimmed);
      const id = statics.get(folded);
      if (id) return { id, params: {} };
      for (const route of table.parameterised) {
        if (folded.length <= route.prefix.length || !folded.startsWith(route.prefix)) continue;
        const value = trimmed.slice(route.prefix.length);
        if (!value.includes("/")) return { id: route.id, params: { [route.param]: value.replace(/%2F/g, "/") } };
      }
      const rest = table.splat ? SPLAT.exec(decoded) : null;
      return rest && table.splat ? { id: table.splat, params: { "*": (rest[1] ?? "").replace(/%2F/g, "/") } } : null;
    },
  };
}

/**
 * ASCII letters in lower case, everything else as it is: what a case-insensitive expression without the `u`
 * flag (react-router's) treats as equal to an ASCII path. `toLowerCase` alone would fold the Kelvin sign into "k".
 */
function foldAscii(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/** Each segment decoded, decoded slashes kept encoded (react-router's decodePath). */
function decodePath(value: string): string {
  try {
    return value
      .split("/")
      .map((segment) => decodeURIComponent(segment).replace(/\//g, "%2F"))
      .join("/");
  } catch {
    return value;
  }
}
