// The client's one request function resolves {data, error} for arguments it cannot send, too: nothing throws.
import { describe, expect, it, vi } from "vitest";
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
