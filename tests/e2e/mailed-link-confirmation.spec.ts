// Mailed links that change an account wait for a click outside the account's own browser (issue 37; the API's
// side is tests/api/mailed-link-confirmation.test.ts). A verification or change-of-address link opened in another
// browser (the person's phone, a mail scanner, a link preview) changes nothing and shows /confirm-email, which says
// what the link will do and asks:
// - a never-proven account: "That was me" (its own password or passkey: verified, nothing ends) or "I didn't
//   create this account" (the claim, docs/decisions/028-claim-on-proof.md);
// - a change of address: "Confirm" or "This wasn't me" (the address stays, every device is signed out).
// Without JavaScript first (every answer is a plain form), then a scanner that runs the page's scripts, then the
// passkey. Separate browser contexts are separate devices.
import type { BrowserContext, CDPSession, Page } from "@playwright/test";
import {
  expect,
  expectErrorSummary,
  expectFieldError,
  expectNoAxeViolations,
  expectStatus,
  PASSWORD,
  sessionCookie,
  signIn,
  signUp,
  submitSignIn,
  test,
  uniqueEmail,
  type TestUser,
} from "./fixtures";
import { countMail, linkFromMail, waitForMail } from "./mail";

const VERIFY = /Verify your email/;
const CONFIRM_CHANGE = /Confirm your new email/;
/** "This wasn't me"'s own mail, with its reset link (issue 41). */
const SIGNED_OUT_EVERYWHERE = /You signed out everywhere/;
/** The link's page, reached by the link's redirect (the token and callbackURL carried on). */
const CONFIRM_PAGE = /^[^?]*\/confirm-email\?token=[^&]+&callbackURL=%2Femail-verified$/;
const REMOVED = /to protect you we removed what had been set up on the account until now: the password and 1 signed-in session\./;

/** Nothing is wider than the window: no sideways scrolling. */
async function expectNoHorizontalScroll(page: Page, label: string): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `horizontal overflow on ${page.url()} (${label})`).toBeLessThanOrEqual(0);
}

/** A new person's account, signed up on the sign-up page of `page` (its own browser), and the link mailed to them. */
async function signUpAndReadLink(page: Page, label: string): Promise<{ person: TestUser; link: string }> {
  const person = { name: "Ada Lovelace", email: uniqueEmail(label), password: PASSWORD };
  await signUp(page, person);
  await expect(page).toHaveURL("/account");
  return { person, link: await linkFromMail(person.email, VERIFY) };
}

/** The account page of `page` is still signed in to `email`, whose verification is `verified`. */
async function expectStillSignedIn(page: Page, email: string, verified: boolean): Promise<void> {
  await page.goto("/account");
  await expect(page).toHaveURL("/account");
  await expect(page.getByTestId("account-email")).toHaveText(email);
  await expect(page.getByText("is not verified yet")).toHaveCount(verified ? 0 : 1);
}

/** `page` (any browser) is signed out: the account page sends it to sign in. */
async function expectSignedOut(page: Page): Promise<void> {
  await page.goto("/account");
  await expect(page).toHaveURL(/\/sign-in/);
}

/** A verified account, signed in on `page`, that asked to move to a new address; the link mailed to the old one. */
async function pendingChange(page: Page, label: string) {
  const { person, link } = await signUpAndReadLink(page, label);
  await page.goto(link); // its own browser: verified at once
  await expectStatus(page, `Your email address ${person.email} is verified.`);
  const newEmail = uniqueEmail(`${label}-new`);
  await page.goto("/account/profile");
  await page.getByLabel("New email").fill(newEmail);
  await page.getByRole("button", { name: "Change email" }).click();
  await expectStatus(page, `We sent a confirmation link to ${person.email}`);
  return { person, newEmail, changeLink: await linkFromMail(person.email, CONFIRM_CHANGE) };
}

/** What a scanner does: open the link, let the page load everything and run its scripts, and go no further. */
async function scan(scanner: Page, link: string): Promise<void> {
  await scanner.goto(link);
  await expect(scanner).toHaveURL(CONFIRM_PAGE);
  await scanner.waitForLoadState("networkidle");
  await scanner.waitForTimeout(1_500);
}

test.describe("JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("on another device, 'That was me' with the password verifies the address, signs that device in and ends nothing", async ({
    page,
    openContext,
  }) => {
    test.slow(); // four axe checks and three browsers on two busy cores
    const { person, link } = await signUpAndReadLink(page, "creator");

    const { context: phoneContext, page: phone } = await openContext();
    await phone.goto(link);
    await expect(phone).toHaveURL(CONFIRM_PAGE);
    expect(await sessionCookie(phoneContext), "opening the link signs nothing in").toBeUndefined();
    await expect(phone.getByRole("heading", { name: "Confirm your email address", level: 1 })).toBeVisible();
    await expect(phone).toHaveTitle(/^Confirm your email address/);
    await expect(phone.getByRole("main")).toContainText(
      new RegExp(`An account for ${person.email.replace(/[.+]/g, "\\$&")} was created on \\d{1,2} [A-Z][a-z]+ \\d{4} at \\d\\d:\\d\\d UTC.*\\. Was that you\\?`),
    );
    await expect(phone.getByRole("heading", { name: "That was me", level: 2 })).toBeVisible();
    await expect(phone.getByRole("heading", { name: "I didn't create this account", level: 2 })).toBeVisible();
    await expect(phone.getByLabel("Your password for this account")).toHaveAttribute("autocomplete", "current-password");
    // No passkey on the account, and no script to run one: no passkey button.
    await expect(phone.getByRole("button", { name: "Sign in with a passkey" })).toHaveCount(0);
    const elsewhere = phone.getByRole("link", { name: "Sign in another way" });
    expect(decodeURIComponent((await elsewhere.getAttribute("href"))!.replace(/^\/sign-in\?redirectTo=/, ""))).toBe(
      new URL(phone.url()).pathname + new URL(phone.url()).search,
    );
    await expectNoAxeViolations(phone, "confirm page");

    // On a phone, dark: nothing sideways, and still readable.
    await phone.setViewportSize({ width: 320, height: 640 });
    await expectNoHorizontalScroll(phone, "320 px");
    await phone.emulateMedia({ colorScheme: "dark" });
    await expectNoHorizontalScroll(phone, "320 px, dark");
    await expectNoAxeViolations(phone, "confirm page, 320 px, dark");

    // Opening it changed nothing: the browser that signed up is signed in, the address still unverified.
    await expectStillSignedIn(page, person.email, false);

    // A wrong password is refused next to the field; nothing is verified.
    await phone.getByLabel("Your password for this account").fill("not the password");
    await phone.getByRole("button", { name: "Sign in and confirm" }).click();
    await expectErrorSummary(phone, ["That isn't your current password."]);
    await expectFieldError(phone, "Your password for this account", "That isn't your current password.");
    expect(await sessionCookie(phoneContext)).toBeUndefined();

    await phone.getByLabel("Your password for this account").fill(person.password);
    await phone.getByRole("button", { name: "Sign in and confirm" }).click();
    await expect(phone).toHaveURL("/email-verified");
    await expectStatus(phone, `Your email address ${person.email} is verified, and you are signed in. Nothing you set up has changed.`);
    await expect(phone.getByRole("status")).not.toContainText("removed");
    expect(await sessionCookie(phoneContext)).toBeDefined();
    await expectStillSignedIn(phone, person.email, true);

    // The browser that signed up is still signed in, and the password still signs in anywhere.
    await page.reload();
    await expectStillSignedIn(page, person.email, true);
    const { page: laptop } = await openContext();
    await signIn(laptop, person);
  });

  test("'I didn't create this account' claims it: the page says what was removed, and the one who signed up is signed out", async ({
    page,
    openContext,
  }) => {
    const { person: squatter, link } = await signUpAndReadLink(page, "claimed");

    const { context: ownerContext, page: owner } = await openContext();
    await owner.goto(link);
    await expect(owner).toHaveURL(CONFIRM_PAGE);
    await owner.getByRole("button", { name: "I didn't create this account" }).click();
    // It asks once more, saying what goes (a mis-tap would cost the creator their setup).
    await expect(owner.getByRole("heading", { name: "Remove what was set up on this account?", level: 1 })).toBeFocused();
    await owner.getByRole("button", { name: "Yes, remove them" }).click();
    await expect(owner).toHaveURL("/email-verified");
    await expectStatus(owner, `Your email address ${squatter.email} is verified.`);
    await expect(owner.getByRole("status")).toContainText(REMOVED);
    await expect(owner.getByRole("status").getByRole("link", { name: "Choose a new password" })).toHaveAttribute("href", "/forgot-password");
    expect(await sessionCookie(ownerContext), "the claim signs nobody in").toBeUndefined();

    // The squatter's session and password ended with the rest.
    await page.reload();
    await expect(page).toHaveURL(/\/sign-in/);
    await page.goto("/sign-in");
    await submitSignIn(page, squatter);
    await expectErrorSummary(page, ["That email and password don't match."]);

    // The used link, opened again: the address is verified, there is nothing more to do.
    await owner.goto(link);
    await expect(owner).toHaveURL("/email-verified");
  });

  test("a change of address refused with 'This wasn't me': the address stays, every device is signed out, a reset link is mailed", async ({
    page,
    openContext,
  }) => {
    const { person, newEmail, changeLink } = await pendingChange(page, "refused");
    const resets = await countMail(person.email, SIGNED_OUT_EVERYWHERE);

    const { context: otherContext, page: other } = await openContext();
    await other.goto(changeLink);
    await expect(other).toHaveURL(CONFIRM_PAGE);
    await expect(other.getByRole("heading", { name: `Move your account from ${person.email} to ${newEmail}?`, level: 1 })).toBeVisible();
    await expect(other.getByRole("button", { name: "Confirm", exact: true })).toBeVisible();
    await expectNoAxeViolations(other, "change of address");
    await other.setViewportSize({ width: 320, height: 640 });
    await other.emulateMedia({ colorScheme: "dark" });
    await expectNoHorizontalScroll(other, "change of address, 320 px, dark");

    await other.getByRole("button", { name: "This wasn't me" }).click();
    await expect(other).toHaveURL("/sign-in");
    await expectStatus(
      other,
      `The change to ${newEmail} was cancelled and every device was signed out. Choose a new password with the link we sent to ${person.email} before you sign in again.`,
    );
    await expect(other.getByLabel("Email or username")).toHaveValue(person.email);
    expect(await sessionCookie(otherContext)).toBeUndefined();
    await waitForMail(person.email, SIGNED_OUT_EVERYWHERE, { after: resets });

    // The browser that asked for the change is signed out too.
    await page.reload();
    await expect(page).toHaveURL(/\/sign-in/);

    // The address is unchanged, nothing is pending, and the link moves nothing any more, even in the account's browser.
    await signIn(page, person);
    await expect(page.getByTestId("account-email")).toHaveText(person.email);
    await page.goto("/account/profile");
    await expect(page.getByTestId("pending-email")).toHaveCount(0);
    await page.goto(changeLink);
    await expect(page).toHaveURL("/email-verified?error=invalid_token");
    await expect(page.getByRole("heading", { name: "We could not confirm your email address", level: 1 })).toBeVisible();
    await page.goto("/account");
    await expect(page.getByTestId("account-email")).toHaveText(person.email);
  });
});

test.describe("a mail scanner that runs the page's scripts", () => {
  test.use({ javaScriptEnabled: true });

  test("opening a verification link changes nothing; the person's own click in the browser that signed up verifies at once", async ({
    page,
    openContext,
  }) => {
    const { person, link } = await signUpAndReadLink(page, "scanned");

    const { context: scannerContext, page: scanner } = await openContext();
    await scan(scanner, link);
    await expect(scanner.getByRole("heading", { name: "Confirm your email address", level: 1 })).toBeVisible();
    expect(await sessionCookie(scannerContext)).toBeUndefined();
    await expectStillSignedIn(page, person.email, false);

    await page.goto(link);
    await expect(page).toHaveURL("/email-verified");
    await expectStatus(page, `Your email address ${person.email} is verified.`);
    await expect(page.getByRole("status")).not.toContainText("removed");
    await expectStillSignedIn(page, person.email, true);
  });

  test("opening a change-of-address link moves nothing; 'Confirm' on another device (JavaScript off) moves the account", async ({
    page,
    openContext,
  }) => {
    const { person, newEmail, changeLink } = await pendingChange(page, "scanned-change");

    const { page: scanner } = await openContext();
    await scan(scanner, changeLink);
    await expect(scanner.getByRole("heading", { name: `Move your account from ${person.email} to ${newEmail}?`, level: 1 })).toBeVisible();
    await page.goto("/account/profile");
    await expect(page.getByTestId("pending-email")).toContainText(`Change to ${newEmail} pending`);
    await expectStillSignedIn(page, person.email, true);

    const { page: phone } = await openContext({ javaScriptEnabled: false });
    await phone.goto(changeLink);
    await expect(phone).toHaveURL(CONFIRM_PAGE);
    await phone.getByRole("button", { name: "Confirm", exact: true }).click();
    await expect(phone).toHaveURL("/email-verified");
    await expectStatus(phone, `Change confirmed: your email address is now ${newEmail}. We sent a verification link to it`);
    await expectStillSignedIn(page, newEmail, false);
  });
});

test.describe("with a passkey", () => {
  test.use({ javaScriptEnabled: true });

  /** A virtual platform authenticator for `page` (see virtual-authenticator.ts), and its id. */
  async function authenticatorFor(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    return { cdp, authenticatorId };
  }

  /**
   * Chromium's virtual authenticator answers a page's autofill (conditional) request at once, where a person
   * would pick the passkey: hold those requests (GETs; the button's are POSTs) so only the button signs in.
   */
  async function holdAutofill(context: BrowserContext): Promise<void> {
    await context.route("**/api/auth/passkey/generate-authenticate-options", async (route) => {
      if (route.request().method() !== "GET") await route.continue();
    });
  }

  test("'That was me' with a passkey the account already has: signed in on the page, then 'Confirm'; the password and passkey remain", async ({
    page,
    openContext,
  }) => {
    test.slow();
    await holdAutofill(page.context());
    const laptopKeys = await authenticatorFor(page);
    const { person, link } = await signUpAndReadLink(page, "passkey-creator");
    await page.goto("/account/passkeys");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await expect(page.getByRole("status")).toHaveText("Passkey added. You can now sign in with it.");

    // The same passkey on the phone (a synced passkey).
    const { credentials } = await laptopKeys.cdp.send("WebAuthn.getCredentials", { authenticatorId: laptopKeys.authenticatorId });
    expect(credentials).toHaveLength(1);
    const { context: phoneContext, page: phone } = await openContext();
    await holdAutofill(phoneContext);
    const phoneKeys = await authenticatorFor(phone);
    await phoneKeys.cdp.send("WebAuthn.addCredential", { authenticatorId: phoneKeys.authenticatorId, credential: credentials[0] });

    await phone.goto(link);
    await expect(phone).toHaveURL(CONFIRM_PAGE);
    const passkeyButton = phone.getByRole("button", { name: "Sign in with a passkey" });
    await expect(passkeyButton).toBeVisible();
    await expectNoAxeViolations(phone, "confirm page with a passkey");
    await passkeyButton.click();
    // Back on the link's page, signed in: the account's own browser now, asked only to confirm.
    await expect(phone).toHaveURL(CONFIRM_PAGE);
    await expect(phone.getByRole("heading", { name: "That was me" })).toHaveCount(0);
    const confirm = phone.getByRole("button", { name: `Confirm ${person.email}` });
    await expect(confirm).toBeVisible();
    expect(await sessionCookie(phoneContext)).toBeDefined();
    await expectNoAxeViolations(phone, "confirm page, signed in");
    await confirm.click();
    await expect(phone).toHaveURL("/email-verified");
    await expectStatus(phone, `Your email address ${person.email} is verified.`);
    await expect(phone.getByRole("status")).not.toContainText("removed");

    // Nothing ended: the laptop is signed in, its passkey is there, and the password signs in.
    await expectStillSignedIn(page, person.email, true);
    await page.goto("/account/passkeys");
    await expect(page.getByTestId("passkey-row")).toHaveCount(1);
    const { page: other } = await openContext({ javaScriptEnabled: false });
    await signIn(other, person);
  });
});
