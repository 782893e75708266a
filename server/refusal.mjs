// The refusals the server makes itself, before any page runs (a bad Host, a method nothing takes, a form from
// another site): a styled page in words for a browser that asks for HTML (the build's `refusalPage`), the short
// plain text for anyone else.

/** Writes the refusal; `headers` are added either way (Allow, Connection). */
export function sendRefusal(build, req, res, status, text, headers = {}) {
  const page = build?.entry?.module?.refusalPage?.(status, req.headers.accept, req.headers);
  if (page) {
    res.writeHead(status, { ...page.headers, ...headers }).end(page.body);
    return;
  }
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...headers }).end(text);
}
