// The activity page's list (issue 41): a burst of the same wrong password is one row that says how many times
// and when; "New device" is a quiet mark read as ", from a new device"; the pager says where you are, and with
// JavaScript on, "Older events" moves focus to the list's heading. Axe on every state.
import type { APIRequestContext } from "@playwright/test";
import { expect, expectNoAxeViolations, PASSWORD, signIn, test } from "./fixtures";

test.use({ javaScriptEnabled: false });

/** Sign-ins through the API from `request`'s own device: `wrong` with a wrong password, then `right` ones. */
async function signInsElsewhere(request: APIRequestContext, origin: string, email: string, counts: { wrong?: number; right?: number }) {
  for (let i = 0; i < (counts.wrong ?? 0); i++) {
    const refused = await request.post("/api/auth/sign-in/email", { data: { email, password: "not the password at all" }, headers: { Origin: origin } });
    expect(refused.status()).toBe(401);
  }
  for (let i = 0; i < (counts.right ?? 0); i++) {
    const answer = await request.post("/api/auth/sign-in/email", { data: { email, password: PASSWORD }, headers: { Origin: origin } });
    expect(answer.status()).toBe(200);
  }
}

test("wrong passwords in a row are one row; a new device is a quiet mark", async ({ page, openContext, user, baseURL }) => {
  const intruder = await openContext();
  await signInsElsewhere(intruder.context.request, baseURL!, user.email, { wrong: 3, right: 1 });
  await signIn(page, user);
  await page.goto("/account/activity");
  const rows = page.getByTestId("activity-row");
  // Failed sign-ins are written after the answer: the page may need a moment to show all three.
  await expect(async () => {
    await page.reload();
    await expect(rows.filter({ hasText: "Wrong password entered" })).toHaveText([/Wrong password entered — 3 times (at|between) \d\d:\d\d( and \d\d:\d\d)? UTC — /]);
  }).toPass({ timeout: 15_000 });
  const fromNewDevice = rows.filter({ hasText: "New device" }).first();
  await expect(fromNewDevice.locator(".tag")).toHaveClass("tag caution");
  await expect(fromNewDevice.locator(".tag")).toHaveText(", from a New device");
  await expect(page.getByTestId("events-shown")).toHaveCount(0); // one page: no pager
  await expectNoAxeViolations(page, "activity, grouped");

  await page.setViewportSize({ width: 320, height: 640 });
  await page.emulateMedia({ colorScheme: "dark" });
  await expectNoAxeViolations(page, "activity, grouped, phone, dark");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, "no sideways scrolling at 320px").toBeLessThanOrEqual(0);
});

test.describe("with JavaScript on", () => {
  test.use({ javaScriptEnabled: true });

  test("'Older events' says where you are and moves focus to the list's heading", async ({ page, openContext, user, baseURL }) => {
    test.setTimeout(90_000);
    const other = await openContext();
    await signInsElsewhere(other.context.request, baseURL!, user.email, { right: 22 });
    await signIn(page, user);
    await page.goto("/account/activity");
    // Hydrated once React holds the pager's links (the page has no form of its own to wait for).
    await page.waitForFunction(() => {
      const link = document.querySelector("nav.pager a");
      return link !== null && Object.keys(link).some((key) => key.startsWith("__reactProps"));
    });
    const heading = page.getByRole("heading", { level: 1, name: "Activity" });
    await expect(heading).not.toBeFocused();
    await expect(page.getByTestId("events-shown")).toHaveText(/^Events 1–20 of (2[3-9]|\d\d\d?)$/);
    await page.getByRole("link", { name: "Older events" }).click();
    await expect(page.getByTestId("events-shown")).toHaveText(/^Events 21–\d+ of \d+$/);
    await expect(heading).toBeFocused();
    await expectNoAxeViolations(page, "activity, older page, focused");
    await page.getByRole("link", { name: "Newer events" }).click();
    await expect(page).toHaveURL("/account/activity");
    await expect(page.getByTestId("events-shown")).toHaveText(/^Events 1–20 of \d+$/);
    await expect(heading).toBeFocused();
  });
});
