// A fault of ours in a page action (the database away, a bug) is not a blank error page: the page comes back
// with its form as typed (passwords excepted), a 500, and words that say to try again. In process: the fault is
// made on purpose, which a browser test could not do to a running server.
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { AuthError } from "~/auth/errors";
import { goTo, pageForm, SERVER_TROUBLE } from "~/http/page-action.server";

function post(fields: Record<string, string>) {
  return new Request("http://localhost:3000/somewhere", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "http://localhost:3000" },
    body: new URLSearchParams(fields).toString(),
  });
}

const schema = z.object({ email: z.string(), password: z.string() });

describe("a page action that meets a fault", () => {
  afterEach(() => vi.restoreAllMocks());

  it("answers 500 with the form as typed, the password left out, and 'try again'", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const outcome = await pageForm({ request: post({ email: "ada@example.com", password: "secret words" }), context: { clientIp: "10.0.0.1" } }, {
      schema,
      rateLimitAs: "/unit-fault",
      session: "none",
      hideFields: ["password"],
      run: async () => {
        throw new Error("database unreachable");
      },
    });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.stage).toBe("failed");
    expect(outcome.init.status).toBe(500);
    expect(outcome.result.initialValue).toMatchObject({ email: "ada@example.com" });
    expect(JSON.stringify(outcome.result)).not.toContain("secret words");
    expect(outcome.result.error?.[""]).toEqual([SERVER_TROUBLE]);
    expect(SERVER_TROUBLE).toMatch(/try again/);
    expect(logged).toHaveBeenCalled();
  });

  it("still lets a redirect and a refusal through as they were", async () => {
    const args = { request: post({ email: "a@example.com", password: "x" }), context: { clientIp: "10.0.0.2" } };
    const thrown = await pageForm(args, { schema, rateLimitAs: "/unit-fault", session: "none", run: async () => goTo("/elsewhere") }).catch((r: unknown) => r);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).headers.get("location")).toBe("/elsewhere");
    const refused = await pageForm(
      { request: post({ email: "a@example.com", password: "x" }), context: { clientIp: "10.0.0.3" } },
      { schema, rateLimitAs: "/unit-fault", session: "none", run: async () => { throw new AuthError("INVALID_PASSWORD"); } },
    );
    expect(refused.ok === false && refused.stage).toBe("refused");
  });
});
