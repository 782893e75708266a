// "Confirm it's you" (issue 39 §4; the API's side is tests/api/step-up.test.ts). A session that signed in more
// than ten minutes ago is sent to /reverify before a sensitive change, confirms with its password (no JavaScript)
// or a passkey (JavaScript), and comes back to the page it was on. Sessions are aged in the database; the session
// cache is off for these workers so the next request reads the row.
import Database from "better-sqlite3";
import { expect, expectErrorSummary, expectNoAxeViolations, expectStatus, signIn, test } from "./fixtures";
import { addVirtualAuthenticator } from "./virtual-authenticator";

test.use({ appServerEnv: { AUTH_SESSION_CACHE: "off" } });

/** Every session of the account looks signed in eleven minutes ago, never confirmed since. */
function ageSessions(databaseFile: string, email: string) {
  const db = new Database(databaseFile);
  try {
    db.prepare(`UPDATE "session" SET "createdAt" = ?, "verifiedAt" = NULL WHERE "userId" = (SELECT "id" FROM "user" WHERE "email" = ?)`).run(
      Date.now() - 11 * 60_000,
      email,
    );
  } finally {
    db.close();
  }
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("signing out the other devices asks to confirm it's you, then comes back and does it", async ({ page, user, request, baseURL, appServer }) => {
    // Another device, signed in through the API.
    const other = await request.post("/api/auth/sign-in/email", { data: { email: user.email, password: user.password }, headers: { Origin: baseURL! } });
    expect(other.status()).toBe(200);
    await signIn(page, user);
    ageSessions(appServer.database.file, user.email);

    await page.goto("/account/sessions");
    await page.getByRole("button", { name: "Sign out of all other devices" }).click();
    await expect(page).toHaveURL("/reverify?redirectTo=%2Faccount%2Fsessions");
    await expect(page).toHaveTitle(/Confirm it's you/);
    await expect(page.getByRole("heading", { name: "Confirm it's you", level: 1 })).toBeVisible();
    await expectStatus(page, "For your safety, confirm it's you first.");

    await page.getByLabel("Password", { exact: true }).fill("not my password");
    await page.getByRole("button", { name: "Confirm" }).first().click();
    await expectErrorSummary(page, ["That isn't your current password."]);

    await page.getByLabel("Password", { exact: true }).fill(user.password);
    await page.getByRole("button", { name: "Confirm" }).first().click();
    await expect(page).toHaveURL("/account/sessions");
    await expectStatus(page, "Thanks, it's confirmed.");
    await page.getByRole("button", { name: "Sign out of all other devices" }).click();
    await expect(page.getByText("You are signed in on this device only.")).toBeVisible();
  });

  test("reads well on a phone in dark mode", async ({ page, user, appServer }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await page.emulateMedia({ colorScheme: "dark" });
    await signIn(page, user);
    ageSessions(appServer.database.file, user.email);
    await page.goto("/reverify?redirectTo=%2Faccount");
    await expect(page.getByRole("button", { name: "Email me a code" })).toHaveCount(0); // the address is not verified
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page, "reverify on a phone, dark");
  });
});

test.describe("with JavaScript", () => {
  test.use({ javaScriptEnabled: true });

  test("a passkey confirms it's you and the passkeys page offers adding another again", async ({ page, user, appServer }) => {
    await addVirtualAuthenticator(page);
    await signIn(page, user);
    await page.goto("/account/passkeys");
    // Rendered once the page's script runs (a passkey needs it).
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await expect(page.getByTestId("passkey-row")).toHaveCount(1);

    ageSessions(appServer.database.file, user.email);
    await page.goto("/account/passkeys");
    await expect(page.getByTestId("confirm-its-you")).toBeVisible();
    await page.getByRole("link", { name: "Confirm it's you" }).click();
    await expect(page).toHaveURL("/reverify?redirectTo=%2Faccount%2Fpasskeys");
    await expect(page.getByRole("button", { name: "Confirm with a passkey" })).toBeVisible();
    await expectNoAxeViolations(page, "reverify with a passkey");
    await page.getByRole("button", { name: "Confirm with a passkey" }).click();
    await expect(page).toHaveURL("/account/passkeys");
    await expect(page.getByTestId("confirm-its-you")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Add a passkey" })).toBeVisible();
  });
});
