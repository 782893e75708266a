// Login CSRF through verification links (issue 6): a link opened in another browser verifies the address but
// signs that browser into nothing. Since issue 37 the link only asks there (/confirm-email), and the one answer
// that needs no password of the account, "I didn't create this account", verifies it and signs in nobody.
// JavaScript off, two separate browser contexts (two people's browsers).
import { expect, PASSWORD, sessionCookie, signUp, test, uniqueEmail } from "./fixtures";
import { linkFromMail } from "./mail";

test.use({ javaScriptEnabled: false });

test("a verification link forwarded to someone else verifies the address but does not sign their browser in", async ({ page, browser }) => {
  const attacker = { name: "Mallory", email: uniqueEmail("mallory"), password: PASSWORD };
  await signUp(page, attacker);
  const link = await linkFromMail(attacker.email, /Verify your email/);

  const victimContext = await browser.newContext({ javaScriptEnabled: false });
  try {
    const victim = await victimContext.newPage();
    await victim.goto(link);
    await expect(victim).toHaveURL(/^[^?]*\/confirm-email\?token=/);
    expect(await sessionCookie(victimContext)).toBeUndefined();
    await victim.getByRole("button", { name: "I didn't create this account" }).click();
    // It asks once more, saying what goes (a mis-tap would cost the creator their setup).
    await expect(victim.getByRole("heading", { name: "Remove what was set up on this account?", level: 1 })).toBeFocused();
    await victim.getByRole("button", { name: "Yes, remove them" }).click();
    await expect(victim).toHaveURL("/email-verified");
    await expect(victim.getByRole("status")).toContainText(`Your email address ${attacker.email} is verified.`);
    expect(await sessionCookie(victimContext)).toBeUndefined();
    await victim.goto("/account");
    await expect(victim).toHaveURL(/\/sign-in/);
  } finally {
    await victimContext.close();
  }

  // The address is verified for its owner all the same.
  await page.goto("/account");
  await expect(page.getByText("is not verified yet")).toHaveCount(0);
});
