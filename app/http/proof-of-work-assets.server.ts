// The ALTCHA widget's files (the `altcha` package, MIT), served from here so the pages' Content-Security-Policy
// ('self' scripts, styles and workers; no inline styles, no blob: workers) holds: the package's "external" build,
// its stylesheet and the one worker our challenges need (PBKDF2/SHA-256). Nothing of it is in the pages' bundle:
// a page loads it only under a burst (app/components/proof-of-work.tsx, ADR 060). Read once, on first request.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

interface Asset {
  body: string;
  contentType: string;
}

const require = createRequire(import.meta.url);

let assets: Map<string, Asset> | null = null;
let version = "";

function load(): Map<string, Asset> {
  if (assets) return assets;
  // "altcha" resolves to dist/main/…; the package's other files sit beside it.
  const dist = path.resolve(path.dirname(require.resolve("altcha")), "..");
  version = (JSON.parse(readFileSync(path.join(dist, "..", "package.json"), "utf8")) as { version: string }).version;
  const read = (file: string) => readFileSync(path.join(dist, file), "utf8");
  assets = new Map([
    [`altcha-${version}.js`, { body: read("external/altcha.min.js"), contentType: "text/javascript; charset=utf-8" }],
    [`altcha-${version}.css`, { body: read("external/altcha.css"), contentType: "text/css; charset=utf-8" }],
    [`pbkdf2-${version}.js`, { body: read("workers/pbkdf2.js"), contentType: "text/javascript; charset=utf-8" }],
  ]);
  return assets;
}

export const POW_WIDGET_PATH = "/pow-widget";

/** The widget's URLs; each names the package's version, so it may be cached for good. */
export function proofOfWorkWidgetUrls(): { script: string; stylesheet: string; worker: string } {
  load();
  return {
    script: `${POW_WIDGET_PATH}/altcha-${version}.js`,
    stylesheet: `${POW_WIDGET_PATH}/altcha-${version}.css`,
    worker: `${POW_WIDGET_PATH}/pbkdf2-${version}.js`,
  };
}

/** One of the widget's files, or a 404. */
export function proofOfWorkAsset(file: string | undefined): Response {
  const asset = file ? load().get(file) : undefined;
  if (!asset) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(asset.body, {
    headers: {
      "Content-Type": asset.contentType,
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
