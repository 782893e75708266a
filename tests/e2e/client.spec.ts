// The typed client in the product (issue 13): the header's "Signed in as" follows the session in every open tab
// without a reload, and the passkey list refreshes itself after a passkey is added. Two tabs are two pages of
// one browser context (one cookie jar, one BroadcastChannel scope).
import type { Page } from "@playwright/test";
import { freshCode } from "../support/two-factor";
import { expect, expectNoAxeViolations, PASSWORD, signIn, test } from "./fixtures";
import { addVirtualAuthenticator } from "./virtual-authenticator";

test.use({ javaScriptEnabled: true });

const banner = (page: Page) => page.getByRole("banner");

/** Marks the page, so a later check can tell it was not reloaded. */
async function markPage(page: Page) {
  await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
}
const stillTheSamePage = (page: Page) => page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded === true);

test("a sign-out in one tab shows the other tab signed out, without a reload", async ({ page, context, user }) => {
  await signIn(page, user);
  await expect(banner(page)).toContainText(`Signed in as ${user.name}`);
  await expect(banner(page).getByRole("link", { name: user.name })).toHaveAttribute("href", "/account");
  await expectNoAxeViolations(page, "header, signed in");

  const other = await context.newPage();
  await other.goto("/account/sessions");
  await expect(banner(other)).toContainText(`Signed in as ${user.name}`);
  await markPage(other);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL("/");
  await expect(banner(page)).not.toContainText("Signed in as");

  await expect(banner(other)).not.toContainText("Signed in as");
  expect(await stillTheSamePage(other)).toBe(true);
});

test("the header follows a name change, in this tab and the other one", async ({ page, context, user }) => {
  await signIn(page, user);
  const other = await context.newPage();
  await other.goto("/");
  await expect(banner(other)).toContainText(`Signed in as ${user.name}`);
  await markPage(other);

  await page.goto("/account/profile");
  await page.getByLabel("Name", { exact: true }).fill("Grace Hopper");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Profile saved.")).toBeVisible();
  await expect(banner(page)).toContainText("Signed in as Grace Hopper");

  await expect(banner(other)).toContainText("Signed in as Grace Hopper");
  expect(await stillTheSamePage(other)).toBe(true);
});

test("the passkey list refreshes itself after a passkey is added", async ({ page, user }) => {
  await addVirtualAuthenticator(page);
  await signIn(page, user);
  await page.goto("/account/passkeys");
  await expect(page.getByText("You have no passkeys yet.")).toBeVisible();
  await markPage(page);
  const listFetched = page.waitForResponse((response) => response.url().endsWith("/api/auth/passkey/list-user-passkeys"));
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByRole("status")).toHaveText("Passkey added. You can now sign in with it.");
  // The client refetched the list (GET /passkey/list-user-passkeys), not the page.
  expect((await listFetched).status()).toBe(200);
  await expect(page.getByTestId("passkey-row")).toHaveCount(1);
  await expect(page.getByTestId("passkey-row")).toContainText("Chrome on Linux");
  expect(await stillTheSamePage(page)).toBe(true);

  // A rename (a plain form, here submitted by Remix) shows in the same live list.
  await page.getByLabel("Passkey name").fill("Work laptop");
  await page.getByRole("button", { name: "Rename" }).click();
  await expect(page.getByTestId("passkey-row")).toContainText("Work laptop");
});

test("the two-factor page follows the setting when another tab turns it off", async ({ page, context, baseURL, user }) => {
  await signIn(page, user);
  // Switched on through the API, with this browser's cookies (context.request shares them).
  const headers = { Origin: baseURL! };
  const enabled = await context.request.post("/api/auth/two-factor/enable", { data: { password: PASSWORD }, headers });
  const { totpURI } = (await enabled.json()) as { totpURI: string };
  const confirmed = await context.request.post("/api/auth/two-factor/verify-totp", { data: { code: freshCode(totpURI, new Set()) }, headers });
  expect(confirmed.status()).toBe(200);

  const other = await context.newPage();
  await other.goto("/account/two-factor");
  await expect(other.getByRole("button", { name: "Disable two-factor authentication" })).toBeVisible();
  await markPage(other);

  await page.goto("/account/two-factor");
  await page.getByLabel("Your password, to disable two-factor").fill(PASSWORD);
  await page.getByRole("button", { name: "Disable two-factor authentication" }).click();
  await expect(page.getByText("Two-factor authentication is off.")).toBeVisible();

  await expect(other.getByRole("button", { name: "Enable two-factor authentication" })).toBeVisible();
  await expect(other.getByRole("button", { name: "Disable two-factor authentication" })).toHaveCount(0);
  expect(await stillTheSamePage(other)).toBe(true);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the header is rendered on the server", async ({ page, user }) => {
    await signIn(page, user);
    await expect(banner(page)).toContainText(`Signed in as ${user.name}`);
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL("/");
    await expect(banner(page)).not.toContainText("Signed in as");
  });
});
