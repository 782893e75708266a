// The generic error page for browser flows (spec §2): the error code and a way back.
const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export function renderErrorPage(code: string | undefined): Response {
  const shown = escapeHtml(code?.trim() || "Unknown");
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Authentication error</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5}
code{background:#f3f3f3;padding:.1rem .3rem;border-radius:4px}</style></head>
<body><main><h1>Something went wrong</h1>
<p>Error Code: <code data-testid="error-code">${shown}</code></p>
<p><a href="/">Return to Application</a></p></main></body></html>`;
  return new Response(html, {
    status: 200,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'" },
  });
}
