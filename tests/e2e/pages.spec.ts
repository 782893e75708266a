// Issue 7, "pages people enjoy": each point as the user meets it, at desktop and phone sizes, JavaScript off
// first. axe runs on every state reached (through the fixtures' expect helpers and explicitly).
import type { Page } from "@playwright/test";
import {
  expect,
  expectErrorSummary,
  expectNoAxeViolations,
  expectSignedInAs,
  expectStatus,
  PASSWORD,
  signIn,
  signUp,
  test,
  uniqueEmail,
  waitForHydration,
} from "./fixtures";

const SIZES = [
  { name: "desktop", viewport: { width: 1280, height: 800 } },
  { name: "phone", viewport: { width: 390, height: 844 } },
] as const;

/** Nothing is wider than the window: no sideways scrolling. */
async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `horizontal overflow on ${page.url()}`).toBeLessThanOrEqual(0);
}

for (const javaScriptEnabled of [false, true]) {
  for (const size of SIZES) {
    test.describe(`${size.name}, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
      test.use({ javaScriptEnabled, viewport: size.viewport });

      test("the account area is a few short pages, each reached from /account and from the navigation", async ({ page, user }) => {
        await signIn(page, user);
        await expectSignedInAs(page, user);
        const manage = page.getByRole("region", { name: "Manage your account" });
        for (const [label, path, heading] of [
          ["Profile", "/account/profile", "Profile"],
          ["Security", "/account/security", "Security"],
          ["Sessions", "/account/sessions", "Sessions"],
          ["Delete account", "/account/delete", "Delete account"],
        ] as const) {
          await page.goto("/account");
          await manage.getByRole("link", { name: label, exact: true }).click();
          await expect(page).toHaveURL(path);
          await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
          await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
          await expectNoAxeViolations(page, label);
          const response = await page.request.get(path);
          expect(response.headers()["cache-control"], path).toBe("no-store");
        }
        // The navigation marks where you are.
        await page.goto("/account/sessions");
        await expect(page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Sessions" })).toHaveAttribute("aria-current", "page");
        // Security shows only what exists, no placeholders for methods still to come (passkeys have a page of their own).
        await page.goto("/account/security");
        await expect(page.getByRole("heading", { name: "Change password" })).toBeVisible();
        await expect(page.getByRole("main").getByText(/coming soon|not available yet/i)).toHaveCount(0);
      });

      test("a saved change is confirmed in view and focused, and an error is summarised at the top, focused", async ({ page, user }) => {
        await signIn(page, user);
        await page.goto("/account/profile");
        if (javaScriptEnabled) await waitForHydration(page);
        await page.getByLabel("Name", { exact: true }).fill("");
        await page.getByRole("button", { name: "Save profile" }).click();
        await expectErrorSummary(page, ["Enter your name."]);
        await expect(page.locator(".error-summary")).toBeInViewport();
        // The summary links to the field.
        await page.locator(".error-summary").getByRole("link", { name: "Enter your name." }).click();
        await expect(page.getByLabel("Name", { exact: true })).toBeFocused();

        await page.getByLabel("Name", { exact: true }).fill("Ada Byron");
        await page.getByRole("button", { name: "Save profile" }).click();
        await expect(page).toHaveURL("/account/profile");
        await expectStatus(page, "Profile saved.");
        await expect(page).toHaveTitle("Profile · Latchkey");
        await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Ada Byron");
      });

      test("signed-in visitors on /sign-in and /sign-up go to their account", async ({ page, user }) => {
        await signIn(page, user);
        await page.goto("/sign-in");
        await expect(page).toHaveURL("/account");
        await page.goto("/sign-up");
        await expect(page).toHaveURL("/account");
        await page.goto("/sign-in?redirectTo=%2Faccount%2Fsessions");
        await expect(page).toHaveURL("/account/sessions");
      });

      test("the home page says what is built and offers two real buttons", async ({ page }) => {
        await page.goto("/");
        await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign-in for your apps");
        await expect(page.locator("main")).not.toContainText(/passkey|organization|two-factor/i);
        const signUpButton = page.getByRole("link", { name: "Create an account" });
        const signInButton = page.getByRole("link", { name: "Sign in" });
        for (const button of [signUpButton, signInButton]) {
          const box = (await button.boundingBox())!;
          expect(box.height, "a button-sized target").toBeGreaterThanOrEqual(44);
        }
        await expectNoAxeViolations(page, "home");
        await signUpButton.click();
        await expect(page).toHaveURL("/sign-up");
      });

      test("sign-up says the rule before the first try and where the verification link went", async ({ page }) => {
        const user = { name: "Ada Lovelace", email: uniqueEmail("welcome"), password: PASSWORD };
        await page.goto("/sign-up");
        await expect(page.getByLabel("Password")).toHaveAccessibleDescription("Use at least 8 characters.");
        await expectNoAxeViolations(page, "sign-up");
        await signUp(page, user);
        await expect(page).toHaveURL("/account");
        await expectStatus(page, `Welcome, Ada Lovelace. We sent a verification link to ${user.email}.`);
      });

      test("sign-in: a narrow card, 'Forgot password?' after the password field (also for Tab), and targets of at least 24 px", async ({ page }) => {
        await page.goto("/sign-in");
        const card = (await page.locator("form.card").boundingBox())!;
        expect(card.width).toBeLessThanOrEqual(420);
        // The "Continue with" card is no wider than the sign-in card.
        const social = await page.locator("section.social").boundingBox();
        if (social) expect(Math.abs(social.width - card.width)).toBeLessThan(2);
        const input = (await page.getByLabel("Password", { exact: true }).boundingBox())!;
        const forgot = (await page.getByRole("link", { name: "Forgot password?" }).boundingBox())!;
        expect(forgot.y, "below the password field").toBeGreaterThanOrEqual(input.y + input.height);
        await page.getByLabel("Email or username").focus();
        await page.keyboard.press("Tab");
        await expect(page.getByLabel("Password", { exact: true })).toBeFocused();
        for (const target of await page.locator("main button, main input, main a").all()) {
          const box = await target.boundingBox();
          if (box) expect(box.height, await target.evaluate((e) => e.outerHTML.slice(0, 80))).toBeGreaterThanOrEqual(24);
        }
        await expect(page.getByRole("button", { name: "Show password" })).toHaveCount(javaScriptEnabled ? 1 : 0);
        await expectNoAxeViolations(page, "sign-in");
      });

      test("a mistyped address answers 404 with a page that says so", async ({ page, consoleErrors }) => {
        const response = await page.goto("/acount");
        expect(response!.status()).toBe(404);
        await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
        await expect(page).toHaveTitle("Error: Page not found · Latchkey");
        await expect(page.getByRole("link", { name: "Return to the home page" })).toBeVisible();
        await expectNoAxeViolations(page, "404");
        // This 404 is the point of the test; anything else logged still fails it.
        const expected = consoleErrors.filter((error) => /acount/.test(error));
        expect(expected.length).toBeGreaterThan(0);
        consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((error) => !/acount/.test(error)));
      });

      test("the error page explains the code in words, styled, in light and dark", async ({ page }) => {
        await page.goto("/api/auth/error?error=state_not_found");
        await expect(page.getByRole("heading", { level: 1 })).toHaveText("We could not sign you in");
        await expect(page.getByTestId("error-explanation")).toContainText("Start again in this browser");
        await expect(page.getByTestId("error-code")).toHaveText("state_not_found");
        await expectNoAxeViolations(page, "error page, light");
        await page.emulateMedia({ colorScheme: "dark" });
        const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        expect(background).toBe("rgb(18, 18, 24)");
        await expectNoAxeViolations(page, "error page, dark");
      });
    });
  }
}

test.describe("dark mode and small screens", () => {
  test.use({ javaScriptEnabled: false, colorScheme: "dark" });

  test("pages follow prefers-color-scheme: dark and pass axe's contrast checks", async ({ page, user }) => {
    await page.goto("/sign-in");
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(18, 18, 24)");
    await expectNoAxeViolations(page, "sign-in, dark");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expectErrorSummary(page, ["Enter your email address or username."]);
    await signIn(page, user);
    for (const path of ["/account", "/account/profile", "/account/security", "/account/sessions", "/account/delete"]) {
      await page.goto(path);
      await expectNoAxeViolations(page, `${path}, dark`);
    }
  });

  test("at 320 px, a long address scrolls nothing sideways", async ({ page, request, baseURL }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    const email = uniqueEmail("a-very-long-local-part-that-goes-on-and-on-and-on-without-any-break-at-all");
    const created = await request.post("/api/auth/sign-up/email", { data: { name: "Long Address", email, password: PASSWORD } });
    expect(created.status()).toBe(200);
    await request.post("/api/auth/sign-out", { headers: { Origin: baseURL! } });
    for (const path of ["/", "/sign-in", "/sign-up", "/forgot-password", "/api/auth/error?error=state_not_found"]) {
      await page.goto(path);
      await expectNoHorizontalScroll(page);
    }
    await signIn(page, { email, password: PASSWORD });
    for (const path of ["/account", "/account/profile", "/account/security", "/account/sessions", "/account/delete"]) {
      await page.goto(path);
      await expectNoHorizontalScroll(page);
    }
    await expectNoAxeViolations(page, "320 px");
  });
});

test.describe("with JavaScript", () => {
  test.use({ javaScriptEnabled: true });

  test("the show-password toggle reveals and hides the password, and its name says what it will do", async ({ page, user }) => {
    await page.goto("/sign-in");
    await waitForHydration(page);
    const password = page.getByLabel("Password", { exact: true });
    await password.fill("secret words");
    const toggle = page.locator(".password-toggle");
    await expect(toggle).toHaveAccessibleName("Show password");
    await expect(toggle).not.toHaveAttribute("aria-pressed"); // its name changes instead: no state to contradict it
    await toggle.click();
    await expect(password).toHaveAttribute("type", "text");
    await expect(toggle).toHaveAccessibleName("Hide password");
    await expect(toggle).toBeFocused();
    await expectNoAxeViolations(page, "password shown");
    await toggle.click();
    await expect(password).toHaveAttribute("type", "password");
    await expect(toggle).toHaveAccessibleName("Show password");

    // Submitting hides it again: the refusal does not come back with the password on screen.
    await page.getByLabel("Email or username").fill(user.email);
    await toggle.click();
    await expect(toggle).toHaveAccessibleName("Hide password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.locator(".error-summary")).toBeFocused();
    await expect(password).toHaveAttribute("type", "password");
    await expect(toggle).toHaveAccessibleName("Show password");
    await expectNoAxeViolations(page, "toggle");
  });
});

test.describe("with JavaScript, between account pages", () => {
  test.use({ javaScriptEnabled: true });

  test("moving to another account page focuses its heading, so the new page is read; a page's own news still wins", async ({ page, user }) => {
    await signIn(page, user);
    await waitForHydration(page);
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    const nav = page.getByRole("navigation", { name: "Account" });
    for (const name of ["Passkeys", "Sessions", "Profile"]) {
      await nav.getByRole("link", { name }).click();
      await expect(page).toHaveTitle(`${name} · Latchkey`);
      await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
      await expectNoAxeViolations(page, `${name}, moved to`);
    }
    // Moved by the app's script, not by page loads.
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);

    // A form answered on the same page keeps the page's pattern: its confirmation is focused, not the heading.
    await page.getByLabel("Name", { exact: true }).fill("Ada King");
    await page.getByRole("button", { name: /save/i }).first().click();
    await expectStatus(page, "Profile saved.");
  });
});
