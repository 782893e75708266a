// "This wasn't me" answers where the person is (issue 41, serious 1): the question "Sign out everywhere?" is a
// page of its own, in view and focused, its title saying so, whether reached from the button below the list or
// from a sign-in row's "Not you?" — without JavaScript and with it, on a 320 px phone and at 1280 px; axe on
// every new state.
import type { Page } from "@playwright/test";
import { expect, expectNoAxeViolations, expectStatus, signIn, test } from "./fixtures";

const QUESTION_TITLE = "Sign out everywhere? · Latchkey";

/** The question is the focused first heading, wholly on screen, with its answer button, and the tab says so. */
async function expectQuestionHere(page: Page) {
  const question = page.getByRole("heading", { level: 1, name: "Sign out everywhere?" });
  await expect(question).toBeFocused();
  await expect(question).toBeInViewport({ ratio: 1 });
  await expect(page.getByRole("button", { name: "Yes, sign out everywhere" })).toBeInViewport();
  await expect(page).toHaveTitle(QUESTION_TITLE);
}

/** The list has no form to tell hydration by (fixtures' waitForHydration): its links' React props do. */
async function waitForHydratedLinks(page: Page) {
  await page.waitForFunction(() => {
    const link = document.querySelector("main a");
    return link !== null && Object.keys(link).some((key) => key.startsWith("__reactProps"));
  }, undefined, { timeout: 10_000 });
}

/** The activity page with a sign-in from this browser (the account was made elsewhere, by the API). */
async function toActivity(page: Page, user: { email: string; password: string }) {
  await signIn(page, user);
  await page.goto("/account/activity");
  await expect(page).toHaveTitle("Activity · Latchkey");
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("on a phone, a sign-in row's “Not you?” asks the question about that sign-in, in view and focused, and answers it", async ({ page, user }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await toActivity(page, user);
    const row = page.getByTestId("activity-row").first();
    await expect(row).toContainText("Signed in with a password");
    await row.getByRole("link", { name: /^Not you\?/ }).click();
    await expect(page).toHaveURL(/\/account\/activity\?confirm=[\w-]+#not-me-heading$/);
    await expectQuestionHere(page);
    await expect(page.getByText("You said this sign-in was not you: Signed in with a password")).toBeVisible();
    await expect(page.getByTestId("activity-row")).toHaveCount(0); // a page of its own: nothing above to scroll past
    await expectNoAxeViolations(page, "sign out everywhere?, from a row, 320 px");
    await page.emulateMedia({ colorScheme: "dark" });
    await expectNoAxeViolations(page, "sign out everywhere?, from a row, 320 px, dark");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, "no sideways scrolling at 320px").toBeLessThanOrEqual(0);

    await page.getByRole("button", { name: "Yes, sign out everywhere" }).click();
    await expect(page).toHaveURL("/");
    await expectStatus(page, /You are signed out everywhere, on this device too/);
  });

  test("at 1280 px, the button below the list leads to the same question, and Cancel goes back to the list", async ({ page, user }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await toActivity(page, user);
    await page.getByRole("link", { name: "This wasn't me — sign out everywhere" }).click();
    await expect(page).toHaveURL("/account/activity?confirm#not-me-heading");
    await expectQuestionHere(page);
    await expect(page.getByText("If a sign-in or a change to your account was not you")).toBeVisible();
    await expectNoAxeViolations(page, "sign out everywhere?, 1280 px");
    await page.getByRole("link", { name: "Cancel" }).click();
    await expect(page).toHaveURL("/account/activity");
    await expect(page).toHaveTitle("Activity · Latchkey");
  });

  test("a “Not you?” link naming no event of this account asks the plain question", async ({ page, user }) => {
    await toActivity(page, user);
    await page.goto("/account/activity?confirm=somebody-elses-event");
    await expectQuestionHere(page);
    await expect(page.getByText("You said this sign-in was not you")).toHaveCount(0);
  });
});

test.describe("with JavaScript on", () => {
  test.use({ javaScriptEnabled: true });

  test("on a phone, scrolled down to the button: the question comes into view, focused, the title says so", async ({ page, user }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await toActivity(page, user);
    await waitForHydratedLinks(page);
    const button = page.getByRole("link", { name: "This wasn't me — sign out everywhere" });
    await button.scrollIntoViewIfNeeded();
    await button.click();
    await expect(page).toHaveURL("/account/activity?confirm#not-me-heading");
    await expectQuestionHere(page);
    await expectNoAxeViolations(page, "sign out everywhere?, JavaScript on, 320 px");
    await page.getByRole("link", { name: "Cancel" }).click();
    await expect(page).toHaveTitle("Activity · Latchkey");
  });

  test("at 1280 px, “Not you?” asks about that sign-in, and the answer signs out everywhere", async ({ page, user }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await toActivity(page, user);
    await waitForHydratedLinks(page);
    await page.getByTestId("activity-row").first().getByRole("link", { name: /^Not you\?/ }).click();
    await expect(page).toHaveURL(/\?confirm=/);
    await expectQuestionHere(page);
    await expect(page.getByText("You said this sign-in was not you: Signed in with a password")).toBeVisible();
    await expectNoAxeViolations(page, "sign out everywhere?, from a row, JavaScript on");
    await page.getByRole("button", { name: "Yes, sign out everywhere" }).click();
    await expect(page).toHaveURL("/");
    await expectStatus(page, /You are signed out everywhere/);
  });
});
