// For the tests that drive the server with Better Auth's official client: the fetch a browser would make with
// `credentials: "include"` — a cookie jar, and the Origin header on writes.
import { ApiClient } from "./client";
import type { TestServer } from "./server";

export function browserFetch(server: TestServer, jar = new ApiClient(server.baseUrl)): { customFetchImpl: typeof fetch; jar: ApiClient } {
  const customFetchImpl: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const headers = new Headers(request.headers);
    if (jar.cookies.size) headers.set("cookie", jar.cookieHeader());
    if (request.method !== "GET") headers.set("origin", server.origin);
    const response = await fetch(request.url, {
      method: request.method,
      headers,
      body: request.method === "GET" ? undefined : await request.text(),
      redirect: "manual",
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const [name, ...value] = pair.split("=");
      if (attributes.some((a) => /max-age=0/i.test(a)) || value.join("=") === "") jar.cookies.delete(name.trim());
      else jar.cookies.set(name.trim(), value.join("="));
    }
    return response;
  };
  return { customFetchImpl, jar };
}
