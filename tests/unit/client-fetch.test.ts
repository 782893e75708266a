// The client's one request function resolves {data, error} for arguments it cannot send, too: nothing of its
// own throws. The caller's own hooks are another matter: they run as in Better Auth's client.
import { createAuthClient as createBetterAuthClient } from "better-auth/client";
import { describe, expect, it, vi } from "vitest";
import { createAuthClient } from "~/client";
import { createRequester } from "~/client/fetch";

describe("createRequester", () => {
  it("answers a body it cannot serialize with an error, without calling fetch", async () => {
    const fetchImpl = vi.fn(async () => new Response("{}"));
    const request = createRequester("http://localhost/api/auth", { customFetchImpl: fetchImpl });
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const results = [
      await request("/update-user", { method: "POST", body: circular }),
      await request("/update-user", { method: "POST", body: { n: 1n } }),
    ];
    for (const result of results) {
      expect(result.data).toBeNull();
      expect(result.error).toMatchObject({ status: 0, code: "INVALID_ARGUMENTS", source: "browser" });
    }
    expect(fetchImpl).not.toHaveBeenCalled();
  });
});

/**
 * `fetchOptions.onSuccess` / `onError` as Better Auth's client (better-fetch) runs them: awaited before the call
 * resolves, and a hook that throws, or whose promise rejects, rejects the call. Each case runs on both clients
 * with the same canned answers, so a difference shows as a failing pair.
 */
describe("fetchOptions hooks behave as in Better Auth's client", () => {
  const USER = { id: "u1", name: "Ada", email: "ada@example.com", emailVerified: true, image: null, createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z" };
  const answer = (ok: boolean) => async () =>
    ok
      ? new Response(JSON.stringify({ redirect: false, token: "t", user: USER }), { status: 200, headers: { "Content-Type": "application/json" } })
      : new Response(JSON.stringify({ code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" }), {
          status: 401,
          statusText: "Unauthorized",
          headers: { "Content-Type": "application/json" },
        });
  type Hooks = { onSuccess?: () => void | Promise<void>; onError?: () => void | Promise<void> };
  const signIn = {
    ours: (ok: boolean, hooks: Hooks) =>
      createAuthClient({ baseURL: "http://localhost:3000", fetchOptions: { customFetchImpl: answer(ok), ...hooks } }).signIn.email({
        email: USER.email,
        password: "correct horse battery staple",
      }),
    betterAuth: (ok: boolean, hooks: Hooks) =>
      createBetterAuthClient({ baseURL: "http://localhost:3000", fetchOptions: { customFetchImpl: answer(ok), ...hooks } }).signIn.email({
        email: USER.email,
        password: "correct horse battery staple",
      }),
  };

  for (const client of ["ours", "betterAuth"] as const) {
    describe(client, () => {
      it("a throwing onSuccess rejects the call, with the hook's error", async () => {
        const failure = new Error("onSuccess failed");
        await expect(signIn[client](true, { onSuccess: () => { throw failure; } })).rejects.toBe(failure);
      });

      it("a throwing onError rejects the call, with the hook's error", async () => {
        const failure = new Error("onError failed");
        await expect(signIn[client](false, { onError: () => { throw failure; } })).rejects.toBe(failure);
      });

      it("an async hook is awaited: the call resolves after it finished, and its rejection rejects the call", async () => {
        const finished: string[] = [];
        const slowly = (name: string) => async () => {
          await new Promise((resolve) => setTimeout(resolve, 20));
          finished.push(name);
        };
        const ok = await signIn[client](true, { onSuccess: slowly("onSuccess") });
        expect(ok.error).toBeNull();
        const refused = await signIn[client](false, { onError: slowly("onError") });
        expect(refused.error).toMatchObject({ status: 401, code: "INVALID_EMAIL_OR_PASSWORD" });
        expect(finished).toEqual(["onSuccess", "onError"]);

        const failure = new Error("async onSuccess failed");
        await expect(signIn[client](true, { onSuccess: async () => Promise.reject(failure) })).rejects.toBe(failure);
        await expect(signIn[client](false, { onError: async () => Promise.reject(failure) })).rejects.toBe(failure);
      });
    });
  }
});
