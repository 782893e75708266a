// Work that runs after an answer (mails, security notices) is tracked until it ends, so a graceful stop sends
// what the answers promised and a test does not drop its database under it.
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDomain, type DomainHandle } from "../support/domain";

let domain: DomainHandle;
let work: typeof import("~/background-work.server");

beforeAll(async () => {
  domain = await openDomain("sqlite");
  work = await import("~/background-work.server");
});
afterAll(async () => {
  await domain?.close();
});

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it("waits for background work started so far, the work it starts in turn, and failed work alike", async () => {
  const finished: string[] = [];
  work.afterResponse(async () => {
    await later(50);
    finished.push("mail");
    work.afterResponse(async () => {
      await later(50);
      finished.push("notice sent by the mail's work");
    });
  });
  // Work that throws before it returns a promise still ends (and is still waited for).
  const { AuthError } = await import("~/auth/errors");
  work.afterResponse((() => {
    throw new AuthError("USER_NOT_FOUND");
  }) as () => Promise<unknown>);
  work.afterResponse(async () => {
    await later(20);
    throw new AuthError("INVALID_TOKEN"); // a refusal: not logged, still waited for
  });
  expect(finished).toEqual([]);
  await work.backgroundWorkSettled();
  expect(finished).toEqual(["mail", "notice sent by the mail's work"]);
  await work.backgroundWorkSettled(); // nothing left: at once
});
