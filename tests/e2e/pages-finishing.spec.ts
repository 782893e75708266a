// Issue 27's minor points, as the user meets them (JavaScript off unless said): sign out from any page, signing
// out the other devices and what the signed-out browser is told, failure pages in words, a pending change of
// address, why an unverified invitee sees no invitations, and the error summary's bullets. axe on each new state.
import {
  expect,
  expectErrorSummary,
  expectNoAxeViolations,
  expectStatus,
  PASSWORD,
  signIn,
  signUp,
  test,
  uniqueEmail,
  waitForHydration,
} from "./fixtures";
import { linkFromMail } from "./mail";

test.use({ javaScriptEnabled: false });

test("'Sign out' is in the header of every page when signed in", async ({ page, user }) => {
  await signIn(page, user);
  for (const path of ["/account/profile", "/account/sessions", "/organizations"]) {
    await page.goto(path);
    await expect(page.getByRole("banner").getByRole("button", { name: "Sign out" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign out" })).toHaveCount(1);
  }
  await expectNoAxeViolations(page, "header with sign out");
  await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL("/");
  await expectStatus(page, "You are signed out.");
  await expect(page.getByRole("banner").getByRole("button", { name: "Sign out" })).toHaveCount(0);
});

test("Sessions signs out every other device, and each of those browsers is told why once", async ({ page, user, openContext }) => {
  test.slow(); // three browsers
  const { page: laptop } = await openContext();
  const { page: phone } = await openContext();
  await signIn(laptop, user);
  await signIn(phone, user);
  await signIn(page, user);
  await page.goto("/account/sessions");
  await expect(page.getByTestId("session-row")).toHaveCount(3);
  await page.getByRole("button", { name: "Sign out of all other devices" }).click();
  await expect(page).toHaveURL("/account/sessions");
  await expectStatus(page, "Signed out of all other devices. This one stays signed in.");
  await expect(page.getByTestId("session-row")).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Sign out of all other devices" })).toHaveCount(0);
  await expect(page.getByText("You are signed in on this device only.")).toBeVisible();

  // An account page sends the signed-out browser to sign in, saying why.
  await laptop.goto("/account/profile");
  await expect(laptop).toHaveURL(/\/sign-in\?redirectTo=/);
  await expectStatus(laptop, /^You were signed out on this browser/);
  // Any other page says it at its top, once.
  await phone.goto("/");
  await expect(phone.getByTestId("signed-out-elsewhere")).toContainText("You were signed out on this browser");
  await expectNoAxeViolations(phone, "signed out elsewhere");
  await phone.reload();
  await expect(phone.getByTestId("signed-out-elsewhere")).toHaveCount(0);
});

test("failure pages say what happened in words, with 'Error:' in the title", async ({ page, baseURL }) => {
  // A form posted from another site: a styled page for a browser, plain text for anyone else.
  const crossSite = await page.request.post("/sign-in", { headers: { Origin: "https://elsewhere.example", Accept: "text/html" }, form: { email: "a" } });
  expect(crossSite.status()).toBe(403);
  const html = await crossSite.text();
  expect(html).toContain("<title>Error: That was refused · Latchkey</title>");
  expect(html).toContain("The form was sent from another site");
  const plain = await page.request.post("/sign-in", { headers: { Origin: "https://elsewhere.example", Accept: "*/*" }, form: { email: "a" } });
  expect(plain.headers()["content-type"]).toMatch(/^text\/plain/);

  // A form too large, and a post to a page that takes none: pages in words, not a bare "413" or "405". The
  // sign-in form's own post is changed on its way (the browser sends it from this site, as a visitor's would).
  await page.goto("/sign-in");
  await page.route("**/sign-in", (route) => route.continue({ postData: `email=${"x".repeat(70 * 1024)}&password=x` }));
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("That was too much to send");
  await expect(page).toHaveTitle("Error: That was too much to send · Latchkey");
  await expectNoAxeViolations(page, "413");
  await page.unrouteAll();
  await page.goto("/sign-in");
  await page.route("**/sign-in", (route) => route.continue({ url: `${baseURL}/email-verified` }));
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("That cannot be done here");
  await expect(page).toHaveTitle("Error: That cannot be done here · Latchkey");
  await expect(page.getByRole("link", { name: "Return to the home page" })).toBeVisible();
  await expectNoAxeViolations(page, "405");
});

test("Profile shows a change of address waiting for its confirmation", async ({ page }) => {
  const user = { name: "Grace Hopper", email: uniqueEmail("pending"), password: PASSWORD };
  await signUp(page, user);
  await expect(page).toHaveURL("/account");
  await page.goto(await linkFromMail(user.email, /Verify your email/));
  const newEmail = uniqueEmail("pending-new");
  await page.goto("/account/profile");
  await page.getByLabel("New email").fill(newEmail);
  await page.getByRole("button", { name: "Change email" }).click();
  await expectStatus(page, `We sent a confirmation link to ${user.email}.`);
  await expect(page.getByTestId("pending-email")).toContainText(`Change to ${newEmail} pending: follow the link we sent to ${user.email}`);
  await page.reload();
  await expect(page.getByTestId("pending-email")).toBeVisible();
  await expectNoAxeViolations(page, "pending email change");
});

test("an invitee whose address is not verified is told why no invitation is listed", async ({ page, user }) => {
  await signIn(page, user);
  await page.goto("/organizations");
  await expect(page.getByTestId("invitations-hidden")).toContainText(`Verify your email address to see invitations sent to ${user.email}`);
  await expectNoAxeViolations(page, "invitations hidden");
});

test("a wrapped error-summary link keeps its bullet on its first line", async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 700 });
  await page.goto("/sign-in");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expectErrorSummary(page, []);
  const link = page.locator(".error-summary li a").first();
  expect(await link.evaluate((a) => getComputedStyle(a).display)).toBe("inline");
});

test.describe("with JavaScript on", () => {
  test.use({ javaScriptEnabled: true });

  test("the header's Sign out works from an account page", async ({ page, user }) => {
    await signIn(page, user);
    await page.goto("/account/profile");
    await waitForHydration(page);
    await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL("/");
    await expectStatus(page, "You are signed out.");
  });
});
