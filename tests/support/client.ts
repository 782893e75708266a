// A tiny HTTP client for API tests: a cookie jar, JSON bodies, and the Origin header a browser would send.
export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
  setCookies: string[];
}

export class ApiClient {
  readonly cookies = new Map<string, string>();
  constructor(
    readonly baseUrl: string,
    readonly origin: string | null = baseUrl,
  ) {}

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  private remember(setCookies: string[]) {
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === "";
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request<T = any>(method: string, path: string, options: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size) headers.cookie = this.cookieHeader();
    if (this.origin && method !== "GET") headers.origin ??= this.origin;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["content-type"] ??= "application/json";
    }
    const response = await fetch(new URL(path, this.baseUrl), { method, headers, body, redirect: "manual" });
    const setCookies = response.headers.getSetCookie();
    this.remember(setCookies);
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON (HTML page, redirect)
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text, setCookies };
  }

  get<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>("GET", path, { headers });
  }

  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>("POST", path, { body: body ?? {}, headers });
  }
}

let counter = 0;
/** A unique address for a test user. */
export function uniqueEmail(prefix = "user"): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 7)}@example.com`;
}

export const PASSWORD = "correct horse battery staple";

export async function signUp(client: ApiClient, overrides: Partial<{ name: string; email: string; password: string }> = {}) {
  const body = { name: "Test User", email: uniqueEmail(), password: PASSWORD, ...overrides };
  const response = await client.post("/api/auth/sign-up/email", body);
  if (response.status !== 200) throw new Error(`sign-up failed: ${response.status} ${response.text}`);
  return { ...body, response, user: response.body.user };
}

/**
 * Resolves with `read()`'s first value that `done` accepts, asking again every 20 ms for at most `ms`: for what
 * another process learns through the database's change feed (PostgreSQL NOTIFY reaches it a moment after the
 * commit, and on a loaded machine that moment can outlast one HTTP round trip, or a second). Returns the last value
 * read. The bound only says when to give up, so it is generous: still far below the session cache's 60 s safety
 * net, so a change seen within it came through the feed.
 */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * After a write made by hand (tests/support/sql.ts), waits until `client`'s server reads its session as `check`
 * wants: on PostgreSQL the write reaches the servers' session caches through NOTIFY, a moment after its commit
 * (ADR 024). For a test whose next request depends on the signed-in user as the server has it cached.
 */
export async function sessionShows(client: ApiClient, check: (session: any) => boolean, ms = 5_000): Promise<void> {
  const read = await eventually(() => client.get("/api/auth/get-session"), (response) => check(response.body), ms);
  if (!check(read.body)) throw new Error(`the server did not hear the write within ${ms} ms: its session reads ${read.text}`);
}

/**
 * What a page shows: its HTML without scripts (a page carries its language's messages for hydration, words it
 * may not show), and text read across tags (an address in `<bdi>` or `dir="ltr"` reads as part of its sentence).
 * Entities stay as the HTML writes them.
 */
export function shownText(html: string): string {
  return html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "").replace(/<[^>]+>/g, "");
}
