// ADR 073: a language's page messages travel once per document. The root loader, which Remix runs again at each
// client-side navigation, answers the language without its messages; the document carries them as inert JSON.
import { beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { sharedServer, type TestServer } from "../support/server";

let server: TestServer;
beforeAll(async () => {
  server = await sharedServer();
});

const pageMessagesOf = (html: string) => {
  const found = html.match(/<script type="application\/json" id="page-messages"[^>]*>([\s\S]*?)<\/script>/);
  return found ? JSON.parse(found[1]) : null;
};

describe("page messages", () => {
  it("the data a navigation fetches names the language and carries no messages", async () => {
    // Single fetch: a client-side navigation to /sign-in asks for /sign-in.data, every loader's data at once.
    const answer = await new ApiClient(server.baseUrl).get("/sign-in.data", { "accept-language": "de" });
    expect(answer.status).toBe(200);
    expect(answer.text).toContain("Deutsch");
    expect(answer.text).toContain("עברית");
    expect(answer.text).not.toContain("Sprache ändern");
    expect(answer.text).not.toContain("picker.submit");
    expect(answer.text.length).toBeLessThan(3_000);
  });

  it("the document carries its language's page messages once, without mail and API messages", async () => {
    const answer = await new ApiClient(server.baseUrl).get("/sign-in", { "accept-language": "ar" });
    expect(answer.status).toBe(200);
    const carried = pageMessagesOf(answer.text);
    expect(carried.lang).toBe("ar");
    expect(carried.messages["picker.submit"]).toBe("تغيير اللغة");
    expect(Object.keys(carried.messages).some((key) => key.startsWith("apiError.") || key.startsWith("mail."))).toBe(false);
    // The code's English sentences, to find them by (said.ts), for the languages that are not English.
    expect(Object.keys(carried.source).every((key) => key.startsWith("said."))).toBe(true);
    expect(answer.text.split('id="page-messages"').length).toBe(2);
    // What "<" a message holds cannot close the script.
    expect(answer.text.match(/id="page-messages"[^>]*>([\s\S]*?)<\/script>/)![1]).not.toContain("<");
  });
});
