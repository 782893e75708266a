// The generic error page for browser flows (spec §2): the error code, what it means in words, and a way back.
// A plain HTML answer (it is an /api/auth route, not a Remix page), styled like the pages, in light and dark.
import { randomBytes } from "node:crypto";
import { languageOfHeaders } from "~/i18n/choose.server";
import { languageOfRequest, languageWithoutAccount, pageLanguage, translatorFor, type PageLanguage } from "~/i18n/i18n.server";

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** Each code the /error redirect carries (spec §2), with what the person should know and do: `errorPage.<code>`. */
const EXPLAINED_CODES = new Set([
  "invalid_callback_request",
  "state_not_found",
  "no_code",
  "oauth_provider_not_found",
  "please_restart_the_process",
  "access_denied",
  // The social refusals a flow without an errorCallbackURL lands here with (spec §8; issue 37).
  "email_not_found",
  "account not linked",
  "email_not_verified",
]);

const STYLE = `:root{color-scheme:light dark;--bg:#f6f6f9;--surface:#fff;--text:#1b1b1f;--muted:#5b5b68;--border:#dedee6;--brand:#4338ca;--link:#3b31c2;--code-bg:#f0f0f4}
@media (prefers-color-scheme:dark){:root{--bg:#121218;--surface:#1c1c24;--text:#ececf1;--muted:#a9a9b8;--border:#33333f;--brand:#8b84ff;--link:#a9a4ff;--code-bg:#2a2a34}}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--text);font-family:system-ui,-apple-system,"Segoe UI",sans-serif;line-height:1.5;overflow-wrap:anywhere}
header{padding:.75rem 1.5rem;background:var(--surface);border-bottom:1px solid var(--border);font-weight:700;display:flex;align-items:center;gap:.4rem}
header svg{color:var(--brand)}main{max-width:32rem;margin:2rem auto;padding:0 1rem}
footer{display:flex;justify-content:center;padding:0 1rem 2rem}footer form{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
footer label{font-weight:600}select,button{font:inherit;min-height:24px}
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

/** The language picker, as every page has it: a plain form back to `here` (issue 44). */
function pickerHtml(language: PageLanguage, here: string): string {
  if (language.offered.length < 2) return "";
  const t = translatorFor(language.lang);
  const options = language.offered
    .map((o) => `<option value="${escapeHtml(o.tag)}" lang="${escapeHtml(o.tag)}" dir="${o.dir}"${o.tag === language.lang ? " selected" : ""}>${escapeHtml(o.name)}</option>`)
    .join("");
  return `<footer><form method="post" action="/language" data-testid="language-picker"><input type="hidden" name="redirectTo" value="${escapeHtml(here)}">
<label for="language-picker-select">${escapeHtml(t.t("picker.label"))}</label><select id="language-picker-select" name="lang">${options}</select>
<button type="submit">${escapeHtml(t.t("picker.submit"))}</button></form></footer>`;
}

/** A page of its own, outside Remix: the title, a heading and the body's HTML (already escaped), in the pages' style. */
function standalonePage(status: number, language: PageLanguage, here: string, title: string, heading: string, bodyHtml: string): PlainPage {
  const nonce = randomBytes(16).toString("base64");
  const html = `<!doctype html>
<html lang="${escapeHtml(language.lang)}" dir="${language.dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Latchkey</title>
<style nonce="${nonce}">${STYLE}</style></head>
<body><header>${BRAND_MARK}Latchkey</header><main><section><h1>${escapeHtml(heading)}</h1>
${bodyHtml}</section></main>${pickerHtml(language, here)}</body></html>`;
  return {
    status,
    body: html,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Language": language.lang,
      "Content-Security-Policy": `default-src 'none'; style-src 'nonce-${nonce}'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
    },
  };
}

/** The page for spec §2's /error redirect, in the reader's language (their account's, else the picker's and the browser's). */
export async function renderErrorPage(code: string | undefined, request: Request): Promise<Response> {
  const trimmed = code?.trim() || "Unknown";
  const language = pageLanguage(await languageOfRequest(request, undefined).catch(() => languageWithoutAccount(request)));
  const t = translatorFor(language.lang);
  const explanation = t.t(EXPLAINED_CODES.has(trimmed) ? `errorPage.${trimmed}` : "errorPage.unknown");
  const [before, after] = t.t("errorPage.code", { code: "\u0000" }).split("\u0000");
  const url = new URL(request.url);
  const page = standalonePage(
    200,
    language,
    `${url.pathname}${url.search}`,
    t.t("errorPage.title"),
    t.t("errorPage.heading"),
    `<p data-testid="error-explanation">${escapeHtml(explanation)}</p>
<p class="muted">${escapeHtml(before)}<code dir="ltr" data-testid="error-code">${escapeHtml(trimmed)}</code>${escapeHtml(after ?? "")}</p>
<p><a href="/">${escapeHtml(t.t("errorPage.back"))}</a></p>`,
  );
  return new Response(page.body, { status: page.status, headers: page.headers });
}

const REFUSED_STATUSES = new Set([400, 403, 405]);

/**
 * The refusals the server makes before the app (a bad Host, a method no page takes, a form from another site), as
 * a page for a browser that asked for one, or null for anyone else (who keeps the short plain-text answer). The
 * language comes from the picker's cookie and Accept-Language (no session is read before the app).
 */
export function refusalPage(status: number, accept: string | undefined, headers: Record<string, string | string[] | undefined> = {}): PlainPage | null {
  if (!REFUSED_STATUSES.has(status) || !/\btext\/html\b/i.test(accept ?? "")) return null;
  const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(", ") : value);
  const language = pageLanguage(languageOfHeaders(one(headers.cookie), one(headers["accept-language"])));
  const t = translatorFor(language.lang);
  const heading = t.t(`refusal.${status}.heading`);
  return standalonePage(
    status,
    language,
    "/",
    `${t.t("common.errorPrefix")}${heading}`,
    heading,
    `<p>${escapeHtml(t.t(`refusal.${status}.text`))}</p>
<p><a href="/">${escapeHtml(t.t("errors.home"))}</a></p>`,
  );
}
