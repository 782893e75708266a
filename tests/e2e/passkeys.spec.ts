// Passkeys in Chromium with a CDP virtual authenticator (issue 10): add one on the account page, sign in with the
// button and by autofill, rename and delete without JavaScript, and sign up with a passkey alone.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import type { Page } from "@playwright/test";
import { SoftAuthenticator } from "../support/webauthn";
import { expect, expectErrorSummary, expectSignedInAs, expectStatus, signIn, test, uniqueEmail, waitForHydration } from "./fixtures";
import { addVirtualAuthenticator } from "./virtual-authenticator";
import { waitForMail } from "./mail";

/** axe-core's violations on the current page (WCAG A and AA rules). */
async function accessibilityViolations(page: Page): Promise<string[]> {
  // Evaluated rather than added as a <script>: the pages' CSP (rightly) refuses inline scripts.
  await page.evaluate(readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8"));
  const result = await page.evaluate(() => (window as unknown as { axe: { run: (o: object) => Promise<{ violations: Array<{ id: string; help: string }> }> } }).axe.run({ runOnly: ["wcag2a", "wcag2aa"] }));
  return result.violations.map((v) => `${v.id}: ${v.help}`);
}

const OPTIONS_URL = "**/api/auth/passkey/generate-authenticate-options";

/**
 * Chromium's virtual authenticator answers a conditional (autofill) request at once, where a real browser waits
 * for the user to pick the passkey. To test anything else on the sign-in page, hold the page's autofill requests
 * for options (GETs: a button press POSTs) until `open()`, so autofill never starts.
 */
async function autofillGate(page: Page) {
  let open = false;
  await page.route(OPTIONS_URL, async (route) => {
    if (open || route.request().method() !== "GET") await route.continue();
    // else: held; the page drops it when it navigates away
  });
  return { open: () => (open = true) };
}

/** Holds the button's own request for options (a POST) until `release()`, to see the page while it waits. */
async function holdButtonOptions(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let requested!: () => void;
  const seen = new Promise<void>((resolve) => (requested = resolve));
  await page.route(OPTIONS_URL, async (route) => {
    if (route.request().method() !== "POST") return route.fallback();
    requested();
    await released;
    await route.fallback();
  });
  return { requested: seen, release };
}

async function addPasskeyOnAccountPage(page: Page) {
  await page.goto("/account");
  await page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Passkeys" }).click();
  await expect(page).toHaveURL("/account/passkeys");
  await expect(page.getByRole("heading", { name: "Passkeys", level: 1 })).toBeVisible();
  await expect(page.getByText("You have no passkeys yet.")).toBeVisible();
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByRole("status")).toHaveText("Passkey added. You can now sign in with it.");
  await expect(page.getByRole("status")).toBeFocused();
  await expect(page.getByTestId("passkey-row")).toHaveCount(1);
  // At the top of the page, under its heading: in view, even on a phone where the button is far down.
  await expect(page.getByRole("status")).toBeInViewport();
  expect(await page.getByRole("status").evaluate((status) => status.previousElementSibling?.tagName)).toBe("H1");
  await expect(page.getByTestId("passkey-row")).toContainText("Chrome on Linux");
  // Dates by Intl in the reader's language (issue 44): English as "2 December 2026".
  await expect(page.getByTestId("passkey-row")).toContainText(`Added ${new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "UTC" }).format(new Date())}`);
  await expect(page.getByTestId("passkey-row")).toContainText("On one device only (not synced)");
}

async function signOut(page: Page) {
  await page.goto("/account");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL("/");
}

test.describe("with JavaScript", () => {
  test.use({ javaScriptEnabled: true });

  test("add a passkey on the account page, sign out, sign in with the button", async ({ page, user }) => {
    await addVirtualAuthenticator(page);
    await autofillGate(page);
    await signIn(page, user);
    await addPasskeyOnAccountPage(page);
    await signOut(page);

    const autofillRequest = page.waitForRequest((request) => request.url().endsWith("/generate-authenticate-options"));
    await page.goto("/sign-in");
    await expect(page.getByLabel("Email")).toHaveAttribute("autocomplete", "username webauthn");
    await autofillRequest; // the page's autofill request is held; the button's own (a POST) goes through
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await expectSignedInAs(page, user);
    await page.goto("/account/passkeys");
    await expect(page.getByTestId("passkey-row")).toHaveCount(1);
    expect(await accessibilityViolations(page)).toEqual([]);

    // With JavaScript too, a refusal is summed up and focused, and a rename confirmed at the top, focused.
    await waitForHydration(page);
    await page.getByLabel("Passkey name").fill("");
    await page.getByRole("button", { name: "Rename" }).click();
    await expectErrorSummary(page, ["Name is required"]);
    await page.getByLabel("Passkey name").fill("Phone");
    await page.getByRole("button", { name: "Rename" }).click();
    await expectStatus(page, "Passkey renamed.");
    await expect(page).toHaveTitle("Passkeys · Latchkey");
    await expect(page.getByTestId("passkey-row")).toContainText("Phone");
  });

  test("adding a passkey that fails says so at the top of the page, focused, on a phone too", async ({ page, user }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await addVirtualAuthenticator(page);
    await autofillGate(page);
    await signIn(page, user);
    await addPasskeyOnAccountPage(page);
    // The same authenticator again: it holds a passkey for this account already, and refuses.
    const add = page.getByRole("button", { name: "Add a passkey" });
    await add.click();
    await expectErrorSummary(page, ["This passkey is already registered."]);
    await expect(page.getByRole("alert")).toHaveCount(0);
    await expect(page.locator(".error-summary")).toBeInViewport();
    await expect(page.getByRole("status")).toHaveCount(0); // the earlier confirmation is gone
    await expect(add).toHaveAccessibleDescription(/This passkey is already registered/);
    await expect(add).not.toHaveAttribute("aria-disabled");
    await expect(page.getByTestId("passkey-row")).toHaveCount(1);

    // A rename then: the add's error goes with it, the title is the page's own, and the rename confirmed, focused.
    await page.getByLabel("Passkey name").fill("Phone");
    await page.getByRole("button", { name: "Rename" }).click();
    await expectStatus(page, "Passkey renamed.");
    await expect(page.locator(".error-summary")).toHaveCount(0);
    await expect(page).toHaveTitle("Passkeys · Latchkey");
  });

  test("sign in by autofill: the browser offers the passkey on the e-mail field", async ({ page, user }) => {
    await addVirtualAuthenticator(page);
    const gate = await autofillGate(page);
    await signIn(page, user);
    await addPasskeyOnAccountPage(page);
    await signOut(page);
    gate.open();

    // No click: the conditional request started on load is answered with the passkey (as if picked from the list).
    await page.goto("/sign-in?redirectTo=%2Faccount%2Fpasskeys");
    await expect(page).toHaveURL("/account/passkeys");
    await expect(page.getByTestId("passkey-row")).toHaveCount(1);
  });

  test("a passkey sign-in that fails says so, and the password form still works", async ({ page, user }) => {
    await addVirtualAuthenticator(page); // it holds no passkey for this site
    await autofillGate(page);
    let optionRequests = 0;
    page.on("request", (request) => void (request.url().endsWith("/generate-authenticate-options") && optionRequests++));
    await page.goto("/sign-in");
    await expect.poll(() => optionRequests).toBe(1); // the autofill request, held
    // While the ceremony runs, the focus stays on the button, which says it is busy (not disabled: that would drop
    // the focus to the page) and ignores presses.
    const buttonOptions = await holdButtonOptions(page);
    const button = page.getByRole("button", { name: "Sign in with a passkey" });
    await button.click();
    await buttonOptions.requested;
    await expect(button).toBeFocused();
    await expect(button).toHaveAttribute("aria-disabled", "true");
    expect(await button.evaluate((element) => (element as HTMLButtonElement).disabled)).toBe(false);
    await button.evaluate((element) => (element as HTMLButtonElement).click()); // ignored: Playwright itself waits for aria-disabled to go
    buttonOptions.release();
    // The refusal in the page's own pattern: a focused error summary, "Error:" in the title, tied to the button.
    await expectErrorSummary(page, ["Signing in with a passkey was cancelled or did not work. Try again, or use your password."]);
    await expect(page.getByRole("alert")).toHaveCount(0);
    await expect(button).not.toHaveAttribute("aria-disabled");
    await expect(button).toHaveAccessibleDescription(/Signing in with a passkey was cancelled/);
    await expect.poll(() => optionRequests).toBe(3); // the button's (once: the second press was ignored), then autofill offered again
    // A second failure is news too: focused again.
    await button.click();
    await expectErrorSummary(page, ["Signing in with a passkey was cancelled"]);
    await expect.poll(() => optionRequests).toBe(5);
    await expect(page).toHaveURL("/sign-in");
    // A wrong password then: the passkey's old error goes, and the form's own summary is the one focused.
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expectErrorSummary(page, ["don't match"]);
    await expect(page.locator(".error-summary")).toHaveCount(1);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expectSignedInAs(page, user);
  });

  test("sign up with a passkey alone: name and e-mail, the mailed code, then the passkey", async ({ page }) => {
    await addVirtualAuthenticator(page);
    const email = uniqueEmail("passkey-sign-up");
    await page.goto("/sign-up");
    await waitForHydration(page);
    // Name and e-mail first: said in a focused error summary, tied to the button.
    await page.getByRole("button", { name: "Sign up with a passkey" }).click();
    await expectErrorSummary(page, ["Enter your name and email address above first."]);
    await expect(page.getByRole("button", { name: "Sign up with a passkey" })).toHaveAccessibleDescription(/Enter your name and email address/);
    await page.getByLabel("Name", { exact: true }).fill("Radia Perlman");
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Sign up with a passkey" }).click();
    // The button pressed is gone: the focus goes to what happened, not to the page.
    await expectStatus(page, `We sent a code to ${email}`);
    expect(await accessibilityViolations(page)).toEqual([]);
    const mail = await waitForMail(email, /sign-up code/i);
    const code = /Your code: (\d{6})/.exec(mail.text)![1];

    // Six digits like every other code (ADR 037): the number pad on phones.
    await expect(page.getByLabel("Code from the email")).toHaveAttribute("inputmode", "numeric");
    await page.getByLabel("Code from the email").fill(code === "000000" ? "111111" : "000000");
    await page.getByRole("button", { name: "Create my passkey" }).click();
    await expectErrorSummary(page, ["That code is not right"]);
    await expect(page.getByRole("alert")).toHaveCount(0);
    await expect(page.getByLabel("Code from the email")).toHaveAccessibleDescription(/That code is not right/);
    await expect(page.getByRole("button", { name: "Create my passkey" })).toHaveAccessibleDescription(/That code is not right/);

    await page.getByLabel("Code from the email").fill(`${code.slice(0, 3)} ${code.slice(3)}`);
    await page.getByRole("button", { name: "Create my passkey" }).click();
    await expectSignedInAs(page, { name: "Radia Perlman", email });
    await expect(page.getByText("verified")).toBeVisible();
    // No password: the Security page offers to set one.
    await page.goto("/account/security");
    await expect(page.getByRole("heading", { name: /set a password/i })).toBeVisible();
    await page.getByLabel("New password").fill("a password after all 123");
    await page.getByRole("button", { name: "Set password" }).click();
    await expect(page.getByRole("heading", { name: "Change password" })).toBeVisible();

    await page.goto("/account/passkeys");
    await expect(page.getByTestId("passkey-row")).toHaveCount(1);
    await signOut(page);
    await page.goto("/sign-in");
    await expect(page).toHaveURL("/account"); // autofill signs the new passkey straight back in
  });
});

/** The official Better Auth client and passkey plugin (tests/compat/better-auth-passkey), bundled for the page. */
const COMPAT = path.join(import.meta.dirname, "..", "compat", "better-auth-passkey");
async function officialClientBundle(): Promise<string> {
  const { build } = await import("esbuild");
  const result = await build({ entryPoints: [path.join(COMPAT, "browser-entry.ts")], bundle: true, format: "iife", platform: "browser", write: false, logLevel: "silent" });
  return result.outputFiles[0].text;
}

test.describe("the official Better Auth passkey client", () => {
  test.use({ javaScriptEnabled: true });
  test.skip(!existsSync(path.join(COMPAT, "node_modules", "@better-auth", "passkey")), "run `npm ci --prefix tests/compat/better-auth-passkey` first");

  test("registers a passkey and signs in with it in Chromium", async ({ page, user }) => {
    await addVirtualAuthenticator(page);
    const gate = await autofillGate(page);
    await signIn(page, user);
    gate.open();
    const bundle = await officialClientBundle();

    await page.evaluate(bundle); // evaluated, not a <script>: the page's CSP refuses inline scripts
    const added = await page.evaluate(async () => {
      const { createAuthClient, passkeyClient } = (window as any).betterAuthPasskey;
      const client = createAuthClient({ baseURL: location.origin, plugins: [passkeyClient()] });
      return client.passkey.addPasskey({ name: "From the official client" });
    });
    expect(added.error).toBeNull();
    expect(added.data.name).toBe("From the official client");

    await signOut(page);
    await page.evaluate(bundle);
    const signedIn = await page.evaluate(async () => {
      const { createAuthClient, passkeyClient } = (window as any).betterAuthPasskey;
      const client = createAuthClient({ baseURL: location.origin, plugins: [passkeyClient()] });
      const result = await client.signIn.passkey();
      const passkeys = await client.passkey.listUserPasskeys();
      return { result, names: passkeys.data?.map((p: { name: string }) => p.name) };
    });
    expect(signedIn.result.error).toBeNull();
    expect(signedIn.result.data.user.email).toBe(user.email);
    expect(signedIn.names).toEqual(["From the official client"]);
    await page.goto("/account");
    await expectSignedInAs(page, user);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("rename and delete a passkey with plain forms, each confirmed once and focused; refusals in a focused summary", async ({ page, user, baseURL }) => {
    await page.goto("/sign-in");
    await expect(page.getByRole("button", { name: "Sign in with a passkey" })).toHaveCount(0);
    await signIn(page, user);

    // Register through the API with a software authenticator, in this browser's cookie jar.
    const authenticator = new SoftAuthenticator(baseURL!);
    const register = async (name: string) => {
      const options = await page.request.get("/api/auth/passkey/generate-register-options");
      expect(options.status()).toBe(200);
      const { response } = authenticator.register(await options.json());
      const verified = await page.request.post("/api/auth/passkey/verify-registration", { data: { response, name }, headers: { Origin: baseURL! } });
      expect(verified.status(), await verified.text()).toBe(200);
      return ((await verified.json()) as { id: string }).id;
    };
    await register("Old laptop");

    await page.goto("/account/passkeys");
    await expect(page.getByRole("button", { name: "Add a passkey" })).toHaveCount(0);
    const row = page.getByTestId("passkey-row");
    await expect(row).toContainText("Old laptop");

    await page.getByLabel("Passkey name").fill("");
    await page.getByRole("button", { name: "Rename" }).click();
    await expectErrorSummary(page, ["Name is required"]);

    await page.getByLabel("Passkey name").fill("Work laptop");
    await page.getByRole("button", { name: "Rename" }).click();
    // Post/redirect/get: the confirmation is focused at the top, and shown once (a reload does not repeat it).
    await expect(page).toHaveURL("/account/passkeys");
    await expectStatus(page, "Passkey renamed.");
    await expect(page).toHaveTitle("Passkeys · Latchkey");
    await expect(row).toContainText("Work laptop");
    await page.reload();
    await expect(row).toContainText("Work laptop");
    await expect(page.getByRole("status")).toHaveCount(0);

    await page.getByRole("button", { name: "Delete Work laptop" }).click();
    await expect(page).toHaveURL("/account/passkeys");
    await expectStatus(page, "Passkey deleted.");
    await expect(page.getByText("You have no passkeys yet.")).toBeVisible();

    // A passkey deleted elsewhere (another tab, the API) while this page still lists it: renaming or deleting it
    // is refused at the top of the page, in people's words, and the list is current again.
    for (const button of ["Rename", "Delete Spare key"]) {
      const id = await register("Spare key");
      await page.goto("/account/passkeys");
      await expect(row).toContainText("Spare key");
      const gone = await page.request.post("/api/auth/passkey/delete-passkey", { data: { id }, headers: { Origin: baseURL! } });
      expect(gone.status(), await gone.text()).toBe(200);
      await page.getByRole("button", { name: button, exact: true }).click();
      await expectErrorSummary(page, ["That passkey no longer exists: it was deleted, perhaps in another tab."]);
      await expect(page.getByText("You have no passkeys yet.")).toBeVisible();
    }
  });
});
