// Organizations with JavaScript off (issue 9): create one, invite an address that has no account, join from the
// e-mailed link by creating the account there, invite an existing user who signs in from the link, change a
// role, remove a member, leave, delete. Every success comes back with its confirmation focused at the top.
import { createRequire } from "node:module";
import type { Page } from "@playwright/test";
import { expect, expectErrorSummary, expectNoAxeViolations, expectStatus, PASSWORD, signIn, signUp, test, uniqueEmail, waitForHydration } from "./fixtures";
import { countMail, linkFromMail } from "./mail";

test.use({ javaScriptEnabled: false });

const INVITE_MAIL = /invited to join an organization/;
const VERIFY_MAIL = /Verify your email/;
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** axe-core's serious and critical findings on the current page (JavaScript on). */
async function accessibilityViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- axe is injected at run time
    const result = await (window as any).axe.run(document);
    return result.violations as Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }>;
  });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

const row = (page: Page, email: string) => page.getByRole("listitem", { name: email, exact: true });

async function invite(page: Page, email: string, role: "member" | "admin" = "member") {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Role", { exact: true }).selectOption(role);
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expectStatus(page, `Invitation sent to ${email.toLowerCase()}.`);
  // The form is empty again, ready for the next one.
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue("");
  await expect(row(page, email.toLowerCase())).toContainText(`as ${role}`);
}

test("an owner builds a team from e-mail invitations, manages it and deletes it", async ({ page, openContext, user: existing }) => {
  // A long story, with axe run on every confirmation along the way.
  test.slow();
  const slug = `acme-${Date.now().toString(36)}`;
  const owner = { name: "Olive Owner", email: uniqueEmail("owner"), password: PASSWORD };
  await signUp(page, owner);
  await expect(page).toHaveURL("/account");

  // Create the organization from the account area.
  await page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Organizations" }).click();
  await expect(page).toHaveURL("/organizations");
  await expect(page.getByRole("heading", { level: 1, name: "Organizations" })).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill("Acme Corp");
  await page.getByLabel("Slug").fill(slug);
  await page.getByRole("button", { name: "Create organization" }).click();
  await expect(page).toHaveURL(`/organizations/${slug}`);
  await expect(page.getByRole("heading", { level: 1, name: "Acme Corp" })).toBeVisible();
  await expectStatus(page, "Acme Corp was created. You can invite people now.");
  await expect(row(page, owner.email)).toContainText("owner");
  // It became the active organization.
  await expect(page.getByRole("combobox", { name: "Active organization" }).locator("option:checked")).toHaveText("Acme Corp");

  // Invite an address that has no account; the invitee creates one from the e-mailed link.
  const newcomer = { name: "Nina Newcomer", email: uniqueEmail("newcomer"), password: PASSWORD };
  await invite(page, newcomer.email);
  const link = await linkFromMail(newcomer.email, INVITE_MAIL);
  expect(new URL(link).pathname).toMatch(/^\/invitations\/[A-Za-z0-9]{32}$/);

  // Someone else signed in (here the owner) is told the invitation is not theirs, and offered to sign out.
  await page.goto(link);
  await expect(page.getByText(`This invitation is for ${newcomer.email}, but you are signed in as ${owner.email}.`)).toBeVisible();
  await expect(page.getByRole("button", { name: `Sign out and sign in as ${newcomer.email}` })).toBeVisible();
  await expect(page.getByRole("button", { name: "Accept invitation" })).toHaveCount(0);
  await page.goto(`/organizations/${slug}`);

  const { page: nina } = await openContext();
  await nina.goto(link);
  await expect(nina.getByRole("heading", { level: 1, name: "Join Acme Corp" })).toBeVisible();
  await expect(nina.getByText(`invited ${newcomer.email}`)).toBeVisible();
  await nina.getByRole("link", { name: "Create an account to accept" }).click();
  await expect(nina).toHaveURL(/\/sign-up\?/);
  await expect(nina.getByLabel("Email")).toHaveValue(newcomer.email);
  await nina.getByLabel("Name", { exact: true }).fill(newcomer.name);
  await nina.getByLabel("Password").fill(newcomer.password);
  await nina.getByRole("button", { name: "Sign up" }).click();
  await expect(nina).toHaveURL(link);
  await nina.getByRole("button", { name: "Accept invitation" }).click();
  await expect(nina).toHaveURL(`/organizations/${slug}`);
  await expectStatus(nina, "You joined Acme Corp.");
  await expect(nina.getByText("your role: member")).toBeVisible();
  // A plain member sees no controls they may not use.
  await expect(nina.getByRole("button", { name: "Send invitation" })).toHaveCount(0);
  await expect(nina.getByRole("button", { name: "Change role" })).toHaveCount(0);
  await expect(nina.getByRole("link", { name: /^Remove/ })).toHaveCount(0);
  await expect(nina.getByRole("button", { name: "Save" })).toHaveCount(0);
  await expect(nina.getByRole("button", { name: "Delete organization" })).toHaveCount(0);
  // Joining through the link proved the inbox: the address is verified.
  await nina.goto("/account");
  await expect(nina.getByText("· verified")).toBeVisible();

  // Invite someone who already has an account; they sign in from the link.
  await page.reload();
  await invite(page, existing.email);
  const secondLink = await linkFromMail(existing.email, INVITE_MAIL);
  const { page: ed } = await openContext();
  await ed.goto(secondLink);
  await ed.getByRole("link", { name: "Sign in to accept" }).click();
  await expect(ed.getByLabel("Email")).toHaveValue(existing.email);
  await ed.getByLabel("Password").fill(existing.password);
  await ed.getByRole("button", { name: "Sign in" }).click();
  await expect(ed).toHaveURL(secondLink);
  await ed.getByRole("button", { name: "Accept invitation" }).click();
  await expect(ed).toHaveURL(`/organizations/${slug}`);

  // The owner changes Nina's role and removes Ed.
  await page.reload();
  await row(page, newcomer.email).getByLabel(`Role of ${newcomer.email}`).selectOption("admin");
  await row(page, newcomer.email).getByRole("button", { name: "Change role" }).click();
  await expectStatus(page, `${newcomer.email} is now admin.`);
  await expect(row(page, newcomer.email).getByTestId("member-role")).toHaveText("admin");
  // Removing is one step further: a question, answered by a second button (a page of its own, no script).
  await row(page, existing.email).getByRole("link", { name: `Remove ${existing.email}` }).click();
  await expect(page.getByRole("group", { name: `Remove ${existing.email} from Acme Corp?` })).toBeFocused();
  await expect(row(page, existing.email)).toHaveCount(1);
  await expectNoAxeViolations(page, "confirm removing a member");
  await page.getByRole("button", { name: `Remove ${existing.email}` }).click();
  await expect(page).toHaveURL(`/organizations/${slug}`);
  await expectStatus(page, `${existing.email} was removed.`);
  await expect(row(page, existing.email)).toHaveCount(0);
  // Ed is no longer a member: the page is a 404 for him.
  expect((await ed.request.get(`/organizations/${slug}`)).status()).toBe(404);

  // An invitation canceled from the page leaves its link with a clear page.
  const withdrawn = uniqueEmail("withdrawn");
  await invite(page, withdrawn);
  const withdrawnLink = await linkFromMail(withdrawn, INVITE_MAIL);
  await page.getByRole("button", { name: `Cancel the invitation of ${withdrawn}` }).click();
  await expectStatus(page, `The invitation of ${withdrawn} was canceled.`);
  await expect(row(page, withdrawn)).toHaveCount(0);
  await ed.goto(withdrawnLink);
  await expect(ed.getByRole("heading", { level: 1, name: "This invitation was withdrawn" })).toBeVisible();

  // Settings: the owner renames the organization.
  await page.getByLabel("Name", { exact: true }).fill("Acme Inc");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(`/organizations/${slug}`);
  await expectStatus(page, "Settings saved.");
  await expect(page.getByRole("heading", { level: 1, name: "Acme Inc" })).toBeVisible();

  // Nina leaves.
  await nina.goto(`/organizations/${slug}`);
  await nina.getByRole("link", { name: "Leave organization" }).click();
  await expect(nina.getByRole("group", { name: "Leave Acme Inc?" })).toBeFocused();
  // "Cancel" goes back without leaving; then she leaves for real.
  await nina.getByRole("link", { name: "Cancel" }).click();
  await expect(nina.getByRole("group", { name: "Leave Acme Inc?" })).toHaveCount(0);
  await nina.getByRole("link", { name: "Leave organization" }).click();
  await nina.getByRole("button", { name: "Leave organization" }).click();
  await expect(nina).toHaveURL("/organizations");
  await expectStatus(nina, "You left Acme Inc.");
  await expect(nina.getByText("You are not a member of any organization yet.")).toBeVisible();

  // Deleting needs the explicit confirmation.
  await page.reload();
  await page.getByRole("button", { name: "Delete organization" }).click();
  await expectErrorSummary(page, ["Tick the box to confirm"]);
  await expect(page.getByRole("heading", { level: 1, name: "Acme Inc" })).toBeVisible();
  await page.getByLabel("Yes, delete Acme Inc").check();
  await page.getByRole("button", { name: "Delete organization" }).click();
  await expect(page).toHaveURL("/organizations");
  await expectStatus(page, "Acme Inc was deleted.");
  await expect(page.getByText("You are not a member of any organization yet.")).toBeVisible();
});

/** Signs `page` up as a new owner and creates an organization; returns its slug and name. */
async function ownerWithOrganization(page: Page, name: string) {
  const slug = `${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${Date.now().toString(36)}`;
  await signUp(page, { name: "Olive Owner", email: uniqueEmail("owner"), password: PASSWORD });
  await expect(page).toHaveURL("/account");
  await page.goto("/organizations");
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Slug").fill(slug);
  await page.getByRole("button", { name: "Create organization" }).click();
  await expect(page).toHaveURL(`/organizations/${slug}`);
  return slug;
}

test("an invitee whose address is not verified is asked to verify it, not offered a button that fails", async ({ page, openContext, user }) => {
  test.slow();
  await ownerWithOrganization(page, "Verify First");
  await invite(page, user.email);
  // Opened without the e-mailed link's secret (typed in, or shared), by the invitee signed in but unverified.
  const path = new URL(await linkFromMail(user.email, INVITE_MAIL)).pathname;
  const { page: invitee } = await openContext();
  await signIn(invitee, user);
  await invitee.goto(path);
  await expect(invitee.getByRole("heading", { level: 1, name: "Join Verify First" })).toBeVisible();
  await expect(invitee.getByRole("heading", { name: "Verify your email address first" })).toBeVisible();
  await expect(invitee.getByRole("button", { name: "Accept invitation" })).toHaveCount(0);
  await expect(invitee.getByRole("button", { name: "Decline" })).toHaveCount(0);

  const seen = await countMail(user.email, VERIFY_MAIL);
  await invitee.getByRole("button", { name: "Resend verification email" }).click();
  await expect(invitee).toHaveURL(path);
  await expectStatus(invitee, `We sent a verification link to ${user.email}. Follow it, then accept the invitation here.`);

  // The verification link brings the invitee back to the invitation, now able to answer it.
  await invitee.goto(await linkFromMail(user.email, VERIFY_MAIL, { after: seen }));
  await expect(invitee).toHaveURL(path);
  await expectStatus(invitee, `Your email address ${user.email} is verified.`);
  await expect(invitee.getByRole("heading", { name: "Verify your email address first" })).toHaveCount(0);
  await invitee.getByRole("button", { name: "Accept invitation" }).click();
  await expectStatus(invitee, "You joined Verify First.");
});

test("declining an invitation lands on the organization list with a focused confirmation", async ({ page, openContext, user }) => {
  await ownerWithOrganization(page, "Declined Co");
  await invite(page, user.email);
  const link = await linkFromMail(user.email, INVITE_MAIL);
  const { page: invitee } = await openContext();
  await signIn(invitee, user);
  // With the link's secret the inbox is proven: no verification needed to answer.
  await invitee.goto(link);
  await invitee.getByRole("button", { name: "Decline" }).click();
  await expect(invitee).toHaveURL("/organizations");
  await expectStatus(invitee, "You declined the invitation to Declined Co.");
  await invitee.goto(link);
  await expect(invitee.getByRole("heading", { level: 1, name: "This invitation was declined" })).toBeVisible();
});

test("an invitation link that is unknown says so clearly", async ({ page }) => {
  const response = await page.request.get("/invitations/no-such-invitation");
  expect(response.status()).toBe(404);
  expect(await response.text()).toContain("Invitation not found");
});

test("the only owner is told why they cannot leave, instead of being offered controls that can only fail", async ({ page }) => {
  const slug = await ownerWithOrganization(page, "Solo Owner");
  await page.goto(`/organizations/${slug}`);
  await expect(page.getByTestId("only-owner")).toHaveText(
    "You are the only owner of Solo Owner, so you cannot leave it or stop being its owner. Invite someone and make them an owner first, or delete the organization.",
  );
  await expect(page.getByRole("link", { name: "Leave organization" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Leave organization" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Change role" })).toHaveCount(0);
  await expect(page.getByText("You are the only owner.")).toBeVisible();
  // A crafted ?confirm=leave asks nothing either.
  await page.goto(`/organizations/${slug}?confirm=leave`);
  await expect(page.getByRole("button", { name: "Leave organization" })).toHaveCount(0);
  await expectNoAxeViolations(page, "only owner");
});

test("switching the active organization without JavaScript confirms it at the top of the page", async ({ page }) => {
  await ownerWithOrganization(page, "Switch Co");
  await page.goto("/account/profile");
  await page.getByRole("combobox", { name: "Active organization" }).selectOption("");
  await page.getByRole("button", { name: "Switch" }).click();
  await expect(page).toHaveURL("/account/profile");
  await expectStatus(page, "No organization is active now.");
  await page.getByRole("combobox", { name: "Active organization" }).selectOption({ label: "Switch Co" });
  await page.getByRole("button", { name: "Switch" }).click();
  await expectStatus(page, "Switched to Switch Co.");
  await expectNoAxeViolations(page, "switched organization");
});

test.describe("with JavaScript on", () => {
  // bypassCSP: axe-core is injected as a script the page's nonce-based policy would block.
  test.use({ javaScriptEnabled: true, bypassCSP: true });

  test("the slug is suggested from the name, and the switcher changes the active organization", async ({ page }) => {
    const owner = { name: "Sam Switcher", email: uniqueEmail("switcher"), password: PASSWORD };
    await signUp(page, owner);
    await expect(page).toHaveURL("/account");
    await page.goto("/organizations");
    await waitForHydration(page);
    const suffix = Date.now().toString(36);
    await page.getByLabel("Name", { exact: true }).pressSequentially(`Blue Sky Labs ${suffix}`);
    await expect(page.getByLabel("Slug")).toHaveValue(`blue-sky-labs-${suffix}`);
    await page.getByRole("button", { name: "Create organization" }).click();
    await expect(page).toHaveURL(`/organizations/blue-sky-labs-${suffix}`);
    await expectStatus(page, `Blue Sky Labs ${suffix} was created. You can invite people now.`);
    // A second confirmation on the same page is announced again.
    await page.getByLabel("Email", { exact: true }).fill(uniqueEmail("js-invitee"));
    await page.getByRole("button", { name: "Send invitation" }).click();
    await expectStatus(page, /^Invitation sent to js-invitee-/);
    await expect(page.getByLabel("Email", { exact: true })).toHaveValue("");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Blue Sky Labs ${suffix}`);
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.goto("/organizations");
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.goto("/account");
    const switcher = page.getByRole("combobox", { name: "Active organization" });
    await expect(switcher.locator("option:checked")).toHaveText(`Blue Sky Labs ${suffix}`);
    await switcher.selectOption("");
    await page.getByRole("button", { name: "Switch" }).click();
    await expect(page).toHaveURL("/account");
    await expect(switcher.locator("option:checked")).toHaveText("None");
    // The switch is confirmed in words beside the switcher (a status, so it is read out too).
    await expect(page.getByRole("status").filter({ hasText: "No organization is active now." })).toBeVisible();
    // The page's own heading comes before the switcher.
    const headingFirst = await page.evaluate(() => {
      const heading = document.querySelector(".account-page h1")!;
      const switcherForm = document.querySelector(".organization-switcher")!;
      return Boolean(heading.compareDocumentPosition(switcherForm) & Node.DOCUMENT_POSITION_FOLLOWING);
    });
    expect(headingFirst).toBe(true);
  });
});
