// Login CSRF through verification links (issue 6): a link opened in another browser verifies the address but
// signs that browser into nothing. JavaScript off, two separate browser contexts (two people's browsers).
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
    await expect(victim).toHaveURL("/email-verified");
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
