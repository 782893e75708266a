// Every mailed link opened in a browser is a page (issue 27, serious 5): mail clients cut long links, so a link
// without its tail (no callbackURL, a cut token) must land on the page that says what happened, never on the
// API's raw JSON. JavaScript off: this is a link clicked in a mail program.
import { expect, expectNoAxeViolations, expectStatus, PASSWORD, signIn, signUp, test, uniqueEmail } from "./fixtures";
import { linkFromMail } from "./mail";

test.use({ javaScriptEnabled: false });

const CONFIRM_DELETE = /Confirm the deletion of your account/;

/** The link as a mail client that cut it after `length` characters leaves it. */
const cut = (link: string, length: number) => link.slice(0, length);
const withoutCallback = (link: string) => {
  const url = new URL(link);
  url.searchParams.delete("callbackURL");
  return url.toString();
};

test("a verification link without its tail shows the confirmation page, in words", async ({ page }) => {
  const email = uniqueEmail("cut-link");
  await signUp(page, { name: "Grace Hopper", email, password: PASSWORD });
  const link = await linkFromMail(email, /Verify your email/);
  expect(new URL(link).searchParams.has("callbackURL")).toBe(true);

  // Cut inside the token: nothing is verified, and the page says why and what to do.
  await page.goto(cut(link, link.indexOf("token=") + 40));
  await expect(page).toHaveURL("/email-verified?error=invalid_token");
  await expect(page.getByRole("heading", { name: "We could not confirm your email address", level: 1 })).toBeVisible();
  await expect(page.getByText("copy all of it into the address bar")).toBeVisible();
  await expect(page).toHaveTitle(/^Error: Email confirmation/);
  await expect(page.locator("body")).not.toContainText('"code"');
  await expectNoAxeViolations(page, "cut verification link");

  // Cut after the token (the callbackURL lost): the address is verified and the page says so.
  await page.goto(withoutCallback(link));
  await expect(page).toHaveURL("/email-verified");
  await expectStatus(page, `Your email address ${email} is verified.`);
  await expect(page).toHaveTitle(/^Email confirmation/);
  await expectNoAxeViolations(page, "verification link without callbackURL");
});

test("an account-deletion link opened signed out, or cut, lands on a page", async ({ page, user, openContext }) => {
  await signIn(page, user);
  await page.goto("/account/delete");
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByLabel("Type your email address to confirm").fill(user.email);
  await page.getByRole("button", { name: "Delete account" }).click();
  await expectStatus(page, `We sent a confirmation link to ${user.email}`);
  const link = await linkFromMail(user.email, CONFIRM_DELETE);

  // Opened in another browser (a phone's mail app), signed out: nothing is deleted, and the page says why.
  const other = await openContext();
  await other.page.goto(link);
  await expect(other.page).toHaveURL("/account-deleted?error=unauthorized");
  await expect(other.page.getByRole("heading", { name: "Your account was not deleted", level: 1 })).toBeVisible();
  await expect(other.page.getByText("sign in, then open the link again")).toBeVisible();
  await expect(other.page).toHaveTitle(/^Error: Account not deleted/);
  await expect(other.page.getByRole("link", { name: "Sign in" }).last()).toBeVisible();
  await expectNoAxeViolations(other.page, "deletion link signed out");

  // A cut token, signed in: not deleted, the words say why.
  await page.goto(cut(link, link.indexOf("token=") + 16));
  await expect(page).toHaveURL("/account-deleted?error=invalid_token");
  await expect(page.getByRole("heading", { name: "Your account was not deleted", level: 1 })).toBeVisible();
  await expectNoAxeViolations(page, "cut deletion link");

  // The whole link without its callbackURL: deleted, and the page says so.
  await page.goto(withoutCallback(link));
  await expect(page).toHaveURL("/account-deleted");
  await expect(page.getByRole("heading", { name: "Your account is deleted", level: 1 })).toBeVisible();
  await expect(page).toHaveTitle(/^Account deleted/);
});
