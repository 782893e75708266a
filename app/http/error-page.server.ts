// The generic error page for browser flows (spec §2): the error code, what it means in words, and a way back.
// A plain HTML answer (it is an /api/auth route, not a Remix page), styled like the pages, in light and dark.
import { randomBytes } from "node:crypto";

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** Each code the /error redirect carries (spec §2), and what the person should know and do. */
export const ERROR_PAGE_EXPLANATIONS: Record<string, string> = {
  invalid_callback_request: "The sign-in provider sent you back with a request we could not read. Start signing in again.",
  state_not_found:
    "We could not match this sign-in to the one you started: it took too long, or it was started in another browser or tab. Start again in this browser.",
  no_code: "The sign-in provider did not confirm who you are, perhaps because the sign-in was cancelled. Start again if you want to sign in.",
  oauth_provider_not_found: "This way of signing in is not set up on this site. Choose another one.",
  please_restart_the_process: "Something interrupted the sign-in. Start again from the beginning.",
  access_denied: "The sign-in was cancelled or refused at the provider. Start again if you want to sign in.",
  // The social refusals a flow without an errorCallbackURL lands here with (spec §8; issue 37).
  email_not_found:
    "The sign-in provider did not share your email address, which an account needs. Allow it to share the address and start again, or sign up with your email address.",
  "account not linked":
    "An account with this email address already exists, and this sign-in is not linked to it. Sign in to that account another way, then link the provider from the account's Linked accounts page.",
  email_not_verified: "Your email address isn't verified yet. Follow the link in the message we sent to it, then sign in again.",
};
const UNKNOWN_EXPLANATION = "Something went wrong while signing you in. Start again; if it keeps happening, tell the people who run this site.";

const STYLE = `:root{color-scheme:light dark;--bg:#f6f6f9;--surface:#fff;--text:#1b1b1f;--muted:#5b5b68;--border:#dedee6;--brand:#4338ca;--link:#3b31c2;--code-bg:#f0f0f4}
@media (prefers-color-scheme:dark){:root{--bg:#121218;--surface:#1c1c24;--text:#ececf1;--muted:#a9a9b8;--border:#33333f;--brand:#8b84ff;--link:#a9a4ff;--code-bg:#2a2a34}}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--text);font-family:system-ui,-apple-system,"Segoe UI",sans-serif;line-height:1.5;overflow-wrap:anywhere}
header{padding:.75rem 1.5rem;background:var(--surface);border-bottom:1px solid var(--border);font-weight:700;display:flex;align-items:center;gap:.4rem}
header svg{color:var(--brand)}main{max-width:32rem;margin:2rem auto;padding:0 1rem}
section{background:var(--surface);border:1px solid var(--border);border-radius:10px;padding:1.25rem 1.5rem}
h1{font-size:1.5rem;margin-top:0;line-height:1.25}a{color:var(--link)}.muted{color:var(--muted);font-size:.9rem}
code{background:var(--code-bg);padding:.1rem .3rem;border-radius:4px}a:focus-visible{outline:3px solid var(--brand);outline-offset:2px}`;

const BRAND_MARK = `<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false"><circle cx="8" cy="12" r="4.5" fill="none" stroke="currentColor" stroke-width="2.5"/><path d="M12.5 12H21M18 12v3.5M21 12v2.5" fill="none" stroke="currentColor" stroke-width="2.5" stroke-linecap="round"/></svg>`;

/** A page as the plain server writes it (it has no Response to hand): status, headers and the HTML. */
export interface PlainPage {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A page of its own, outside Remix: the title, a heading and the body's HTML (already escaped), in the pages' style. */
function standalonePage(status: number, title: string, heading: string, bodyHtml: string): PlainPage {
  const nonce = randomBytes(16).toString("base64");
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Latchkey</title>
<style nonce="${nonce}">${STYLE}</style></head>
<body><header>${BRAND_MARK}Latchkey</header><main><section><h1>${escapeHtml(heading)}</h1>
${bodyHtml}</section></main></body></html>`;
  return {
    status,
    body: html,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy": `default-src 'none'; style-src 'nonce-${nonce}'; base-uri 'none'; frame-ancestors 'none'`,
    },
  };
}

export function renderErrorPage(code: string | undefined): Response {
  const trimmed = code?.trim() || "Unknown";
  const explanation = Object.hasOwn(ERROR_PAGE_EXPLANATIONS, trimmed) ? ERROR_PAGE_EXPLANATIONS[trimmed] : UNKNOWN_EXPLANATION;
  const page = standalonePage(
    200,
    "Sign-in problem",
    "We could not sign you in",
    `<p data-testid="error-explanation">${escapeHtml(explanation)}</p>
<p class="muted">Error Code: <code data-testid="error-code">${escapeHtml(trimmed)}</code></p>
<p><a href="/">Return to Application</a></p>`,
  );
  return new Response(page.body, { status: page.status, headers: page.headers });
}

/** What the server refuses before any page runs (server/*.mjs), in words for people. */
const REFUSALS: Record<number, { heading: string; text: string }> = {
  400: { heading: "We could not read that request", text: "The address or what was sent is not one we can read. Check the address, or start again from the home page." },
  403: { heading: "That was refused", text: "The form was sent from another site, so nothing was done. Go back to this site's own page and try again there." },
  405: { heading: "That cannot be done here", text: "This address does not take that kind of request. Go back and use the page's own buttons and links." },
};

/**
 * The refusals the server makes before the app (a bad Host, a method no page takes, a form from another site), as
 * a page for a browser that asked for one, or null for anyone else (who keeps the short plain-text answer).
 */
export function refusalPage(status: number, accept: string | undefined): PlainPage | null {
  const refusal = REFUSALS[status];
  if (!refusal || !/\btext\/html\b/i.test(accept ?? "")) return null;
  return standalonePage(
    status,
    `Error: ${refusal.heading}`,
    refusal.heading,
    `<p>${escapeHtml(refusal.text)}</p>
<p><a href="/">Return to the home page</a></p>`,
  );
}
