// A one-time message carried across a post/redirect/get: the action that succeeded sets it on its redirect, and
// the page it redirects to reads it once (its loader clears it) and shows it focused at the top. A short-lived,
// signed, HttpOnly cookie: it works without JavaScript, a refresh does not repeat it, and nobody else can plant
// a message on the page (see docs/decisions/013-account-area-and-feedback.md).
import { parse, serialize } from "cookie";
import { sign, unsign } from "~/auth/core/crypto.server";
import { env } from "~/env.server";

const FLASH_COOKIE = `${env.secureCookies ? "__Secure-" : ""}latchkey.flash`;
const FLASH_PURPOSE = "flash";
/** Long enough for a slow redirect, short enough that a message never greets a later, unrelated visit. */
const FLASH_MAX_AGE_SECONDS = 60;
const MAX_FLASH_LENGTH = 800;

const cookieOptions = { httpOnly: true, sameSite: "lax" as const, path: "/", secure: env.secureCookies };

/** A way on, shown after the message (e.g. "Set a password" after a claim removed the old one): a path here. */
export interface FlashLink {
  href: string;
  text: string;
}

export interface FlashContent {
  text: string;
  /** An address to prefill on the next page's form (the sign-in page after a password reset). */
  email?: string;
  link?: FlashLink;
  /** "error": the message is a refusal that ended the previous step (shown as an error, not a confirmation). */
  tone?: "error";
  /**
   * The path of the page the message is for (a redirect's target). Another page drops it unshown: a redirect to a
   * page with no notice area (the OpenID consent page after the welcome's "Thank you…") would otherwise leave it
   * for whichever unrelated page shows notices next (issue 41).
   */
  for?: string;
}

/** A path as `for` compares it: no query, fragment or trailing slash; an address on another site stays unlike any here. */
export function flashPathOf(location: string): string {
  const url = new URL(location, env.BASE_URL);
  const path = url.pathname.replace(/(.)\/+$/, "$1");
  return url.origin === new URL(env.BASE_URL).origin ? path : `//${url.host}${path}`;
}

/** A link kept only if it is a path on this site (the cookie is signed; this is belt and braces). */
const sameSiteLink = (link: unknown): FlashLink | undefined => {
  const { href, text } = (link ?? {}) as Partial<FlashLink>;
  return typeof href === "string" && /^\/(?![/\\])/.test(href) && typeof text === "string" && text ? { href, text } : undefined;
};

/** Sets the message the next page shows. */
export function setFlash(headers: Headers, message: string, extra: Omit<FlashContent, "text"> = {}): void {
  const content: FlashContent = { text: message.slice(0, MAX_FLASH_LENGTH), ...extra };
  const value = sign(Buffer.from(JSON.stringify(content)).toString("base64url"), FLASH_PURPOSE);
  headers.append("Set-Cookie", serialize(FLASH_COOKIE, value, { ...cookieOptions, maxAge: FLASH_MAX_AGE_SECONDS }));
}

/** The message set for this page, if any, clearing it (the clearing cookie is appended to `headers`). */
export function takeFlashContent(request: Request, headers: Headers): FlashContent | null {
  const raw = parse(request.headers.get("cookie") ?? "")[FLASH_COOKIE];
  if (raw === undefined) return null;
  headers.append("Set-Cookie", serialize(FLASH_COOKIE, "", { ...cookieOptions, maxAge: 0 }));
  const value = unsign(raw, FLASH_PURPOSE);
  if (value === null) return null;
  try {
    const content = JSON.parse(Buffer.from(value, "base64url").toString("utf8")) as FlashContent;
    if (typeof content.text !== "string") return null;
    if (typeof content.for === "string" && content.for !== flashPathOf(new URL(request.url).pathname)) return null;
    const link = sameSiteLink(content.link);
    return {
      text: content.text,
      ...(typeof content.email === "string" ? { email: content.email } : {}),
      ...(link ? { link } : {}),
      ...(content.tone === "error" ? { tone: "error" as const } : {}),
    };
  } catch {
    return null;
  }
}

/** The message text set for this page, if any, clearing it. */
export function takeFlash(request: Request, headers: Headers): string | null {
  return takeFlashContent(request, headers)?.text || null;
}

/** A confirmation to show once; `id` changes with every message, so the page refocuses it and resets its forms. */
export interface Flash {
  text: string;
  id: string;
  link?: FlashLink;
}

/** The message set for this page, if any, as a page shows it (`FlashMessage`), clearing it. */
export function takeFlashNotice(request: Request, headers: Headers): Flash | null {
  const content = takeFlashContent(request, headers);
  if (!content?.text) return null;
  return { text: content.text, id: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`, ...(content.link ? { link: content.link } : {}) };
}
