// Claim on proof (issue 24 item 2, issue 27 serious item 1; docs/decisions/028-claim-on-proof.md): when proving
// the inbox ends what was set up on a never-proven account, the page the owner lands on says what ended and
// why, and offers a password. In the browser that signed up, nothing ends and nothing is said. Since issue 37 a
// verification link opened in another browser only asks (the /confirm-email page): the claim is its "I didn't
// create this account" button. JavaScript off, separate browser contexts for separate people.
import { expect, expectNoAxeViolations, expectStatus, PASSWORD, sessionCookie, signUp, test, uniqueEmail } from "./fixtures";
import { countMail, linkFromMail, waitForMail } from "./mail";

test.use({ javaScriptEnabled: false });

const REMOVED = /had not been confirmed before, and anyone can sign up with any address, so to protect you we removed what had been set up on the account until now: the password and 1 signed-in session\./;

test("the verification link opened by the owner says what was removed and offers a new password", async ({ page, browser }) => {
  const squatter = { name: "Mallory", email: uniqueEmail("claimed"), password: PASSWORD };
  await signUp(page, squatter);
  await expect(page).toHaveURL("/account");
  const link = await linkFromMail(squatter.email, /Verify your email/);

  const ownerContext = await browser.newContext({ javaScriptEnabled: false });
  try {
    const owner = await ownerContext.newPage();
    await owner.goto(link);
    // Opening the link changes nothing: the page asks, and the squatter is still signed in meanwhile.
    await expect(owner).toHaveURL(/^[^?]*\/confirm-email\?token=/);
    await expect(owner.getByRole("heading", { name: "Confirm your email address", level: 1 })).toBeVisible();
    await expect(owner.getByText(`An account for ${squatter.email} was created on`)).toBeVisible();
    await page.reload();
    await expect(page).toHaveURL("/account");
    await owner.getByRole("button", { name: "I didn't create this account" }).click();
    // It asks once more, saying what goes (a mis-tap would cost the creator their setup).
    await expect(owner.getByRole("heading", { name: "Remove what was set up on this account?", level: 1 })).toBeFocused();
    await owner.getByRole("button", { name: "Yes, remove them" }).click();
    await expect(owner).toHaveURL("/email-verified");
    await expectStatus(owner, `Your email address ${squatter.email} is verified.`);
    await expect(owner.getByRole("status")).toContainText(REMOVED);
    const choose = owner.getByRole("status").getByRole("link", { name: "Choose a new password" });
    await expect(choose).toHaveAttribute("href", "/forgot-password");
    expect(await sessionCookie(ownerContext)).toBeUndefined();
    await choose.click();
    await expect(owner).toHaveURL("/forgot-password");
  } finally {
    await ownerContext.close();
  }

  // The squatter's session ended with the rest.
  await page.goto("/account");
  await expect(page).toHaveURL(/\/sign-in/);
});

test("a sign-in code from the owner lands on the account with what was removed and a way to set a password", async ({ page, browser }) => {
  const squatter = { name: "Mallory", email: uniqueEmail("coded"), password: PASSWORD };
  await signUp(page, squatter);
  await expect(page).toHaveURL("/account");

  const ownerContext = await browser.newContext({ javaScriptEnabled: false });
  try {
    const owner = await ownerContext.newPage();
    await owner.goto("/sign-in/code");
    await owner.getByLabel("Email").fill(squatter.email);
    const seen = await countMail(squatter.email, /sign-in code/);
    await owner.getByRole("button", { name: "Email me a sign-in code" }).click();
    const mail = await waitForMail(squatter.email, /sign-in code/, { after: seen });
    const code = mail.text.match(/Your code: (\d{6})/)![1];
    await owner.getByLabel("Code").fill(code);
    await owner.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(owner).toHaveURL("/account");
    await expectStatus(owner, REMOVED);
    await expect(owner.getByRole("status")).toContainText("Set a password to sign in with one.");
    await owner.getByRole("status").getByRole("link", { name: "Set a password" }).click();
    await expect(owner).toHaveURL("/account/security#set-password");
    await expect(owner.getByRole("heading", { name: "Set a password" })).toBeVisible();
    await expectNoAxeViolations(owner, "set a password after a claim");
  } finally {
    await ownerContext.close();
  }
});

test("in the browser that signed up, proving the inbox removes nothing and says nothing about it", async ({ page }) => {
  const person = { name: "Ada", email: uniqueEmail("own"), password: PASSWORD };
  await signUp(page, person);
  await expect(page).toHaveURL("/account");
  await page.goto(await linkFromMail(person.email, /Verify your email/));
  await expect(page).toHaveURL("/email-verified");
  await expectStatus(page, `Your email address ${person.email} is verified.`);
  await expect(page.getByRole("status")).not.toContainText("removed");
  await page.goto("/account");
  await expect(page).toHaveURL("/account");
});
