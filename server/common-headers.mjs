// What every answer carries, pages, API and files alike: tokens in URLs never leak to other sites through the
// Referer, nothing is sniffed into another type, and on https browsers stay on https.
export function setCommonHeaders(res, strictTransport) {
  res.setHeader("Referrer-Policy", "same-origin");
  res.setHeader("X-Content-Type-Options", "nosniff");
  if (strictTransport) res.setHeader("Strict-Transport-Security", "max-age=63072000");
}
