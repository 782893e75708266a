// The few pages the provider itself answers (an error it cannot send back to the application, the sign-out
// question of RP-initiated logout, the signed-out page): plain HTML in Latchkey's words, no script, readable on a
// phone and in dark mode. Everything a person does in between (sign-in, consent) is a Remix page.
const STYLE = `
:root{color-scheme:light dark;font-family:system-ui,-apple-system,"Segoe UI",sans-serif;line-height:1.5}
body{margin:0;padding:2rem 1rem;background:Canvas;color:CanvasText}
main{max-width:26rem;margin:0 auto;padding:1.5rem;border:1px solid GrayText;border-radius:.75rem}
h1{font-size:1.4rem;margin-top:0}
button{font:inherit;padding:.6rem 1rem;margin:.25rem .5rem .25rem 0;border-radius:.5rem;border:1px solid GrayText;cursor:pointer;min-height:44px}
button.primary{background:#1d4ed8;color:#fff;border-color:#1d4ed8}
.muted{opacity:.8}code{word-break:break-all}`;

export function escapeHtml(value: unknown): string {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** A whole page; `body` is HTML already escaped by the caller. */
export function providerPage(title: string, body: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · Latchkey</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

/** Words for the standard errors a person may land on (the code stays on the page for whoever helps them). */
const ERROR_WORDS: Record<string, string> = {
  invalid_client: "This application is not registered here, or its details are wrong.",
  invalid_redirect_uri: "This application asked to send you to an address it did not register, so the request was stopped.",
  invalid_request: "The application's request was not complete or not valid.",
  access_denied: "Access was not allowed.",
  login_required: "You need to sign in first.",
  invalid_grant: "This request has expired or was already used.",
  session_not_found: "This request has expired. Go back to the application and start again.",
};

export function errorPage(out: { error?: string; error_description?: string }): string {
  const words = ERROR_WORDS[out.error ?? ""] ?? "The application's request could not be completed.";
  return providerPage(
    "Sign-in request stopped",
    `<h1>Sign-in request stopped</h1><p>${escapeHtml(words)}</p><p>Go back to the application and try again. If it keeps happening, tell whoever runs it.</p>` +
      `<p class="muted">Error: <code>${escapeHtml(out.error ?? "server_error")}</code>${out.error_description ? ` — ${escapeHtml(out.error_description)}` : ""}</p>`,
  );
}

export function signOutQuestionPage(form: string, clientName: string | null): string {
  const from = clientName ? ` (asked by ${escapeHtml(clientName)})` : "";
  return providerPage(
    "Sign out",
    `<h1>Sign out of Latchkey?</h1><p>You asked to sign out${from}. Signing out here also signs you out of Latchkey in this browser.</p>${form}` +
      `<button class="primary" type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button>` +
      `<button type="submit" form="op.logoutForm">No, stay signed in</button>`,
  );
}

export function signedOutPage(clientName: string | null): string {
  return providerPage("Signed out", `<h1>Signed out</h1><p>You are signed out${clientName ? ` of ${escapeHtml(clientName)}` : ""}.</p><p><a href="/sign-in">Sign in again</a></p>`);
}

/** The authorization or sign-out endpoint, asked too often from one address (a 429). */
export function tooManyRequestsPage(retryAfterSeconds: number): string {
  const wait = Number.isFinite(retryAfterSeconds) && retryAfterSeconds > 1 ? `${Math.ceil(retryAfterSeconds)} seconds` : "a moment";
  return providerPage(
    "Too many requests",
    `<h1>Too many requests</h1><p>Too many sign-in requests came from your network in a short time. Wait ${escapeHtml(wait)}, then go back to the application and try again.</p>`,
  );
}
