// Whether a request was made by a browser opening a page (a mailed link clicked, typed or pasted) rather than by
// a client asking for data. Browsers navigating list `text/html` in Accept (first); fetch() sends `*/*` and API
// clients `application/json`, so those keep the JSON answer the wire format promises.

/** The quality a media range gets in an Accept header, or -1 when it is not listed (wildcards do not count). */
function qualityOf(accept: string, type: string): number {
  for (const part of accept.split(",")) {
    const [range, ...params] = part.split(";").map((piece) => piece.trim().toLowerCase());
    if (range !== type) continue;
    const q = params.find((param) => param.startsWith("q="));
    const value = q ? Number(q.slice(2)) : 1;
    return Number.isFinite(value) ? value : 0;
  }
  return -1;
}

/** True when the request asks for HTML before JSON: answer it with a page (or a redirect to one). */
export function wantsPage(request: Request): boolean {
  const accept = request.headers.get("accept") ?? "";
  const html = qualityOf(accept, "text/html");
  return html > 0 && html >= qualityOf(accept, "application/json");
}
