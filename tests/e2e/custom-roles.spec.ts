// An organization's own roles (issue 42, ADR 069) with JavaScript off: the Roles tab, the built-in roles in words,
// creating a role with one checkbox per permission, giving it to a member from the members tab, the role page's
// boxes, rename and "Held by 1 member", taking it back and deleting it; an admin's boxes for permissions they lack
// disabled with the visible reason; a non-member's 404 — with axe on each state.
import Database from "better-sqlite3";
import { expect, expectNoAxeViolations, signUp, test, uniqueEmail, waitForHydration, PASSWORD } from "./fixtures";

test.use({ javaScriptEnabled: false });

/** Puts a person into the organization `slug` with `role` (the e2e server's SQLite file). */
function addToOrganization(databaseFile: string, slug: string, userId: string, role: string) {
  const db = new Database(databaseFile);
  db.pragma("busy_timeout = 10000");
  try {
    const { id } = db.prepare(`SELECT "id" FROM "organization" WHERE "slug" = ?`).get(slug) as { id: string };
    const now = new Date().toISOString().replace("Z", "+00:00");
    db.prepare(`INSERT INTO "member" ("id", "organizationId", "userId", "role", "createdAt") VALUES (?, ?, ?, ?, ?)`).run(`${slug}-${role}-${userId}`, id, userId, role, now);
  } finally {
    db.close();
  }
}

function newColleague(databaseFile: string, slug: string, name: string): { id: string; email: string } {
  const db = new Database(databaseFile);
  db.pragma("busy_timeout = 10000");
  const id = `${slug}-colleague`;
  const email = `${slug}-colleague@example.com`;
  try {
    const now = new Date().toISOString().replace("Z", "+00:00");
    db.prepare(`INSERT INTO "user" ("id", "name", "email", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?)`).run(id, name, email, now, now);
  } finally {
    db.close();
  }
  return { id, email };
}

function userIdOf(databaseFile: string, email: string): string {
  const db = new Database(databaseFile, { readonly: true });
  try {
    return (db.prepare(`SELECT "id" FROM "user" WHERE "email" = ?`).get(email) as { id: string }).id;
  } finally {
    db.close();
  }
}

test("an owner creates a role with checkboxes, gives it to a member, takes it back and deletes it", async ({ page, appServer, browser }) => {
  const slug = `roles-${Date.now().toString(36)}`;
  await signUp(page, { name: "Rhea Roles", email: uniqueEmail("roles"), password: PASSWORD });
  await page.goto("/organizations");
  await page.getByLabel("Name", { exact: true }).fill("Role Works");
  await page.getByLabel("Slug").fill(slug);
  await page.getByRole("button", { name: "Create organization" }).click();
  await expect(page).toHaveURL(`/organizations/${slug}`);
  const colleague = newColleague(appServer.database.file, slug, "Cole League");
  addToOrganization(appServer.database.file, slug, colleague.id, "member");

  const tabs = page.getByRole("navigation", { name: "Organization" });
  await tabs.getByRole("link", { name: "Roles" }).click();
  await expect(page).toHaveURL(`/organizations/${slug}/roles`);
  await expect(tabs.getByRole("link", { name: "Roles" })).toHaveAttribute("aria-current", "page");
  const builtIn = page.getByRole("list", { name: "Built-in roles" });
  await expect(builtIn.getByRole("listitem", { name: "owner" })).toContainText("Delete the organization");
  await expect(builtIn.getByRole("listitem", { name: "admin" })).not.toContainText("Delete the organization");
  await expect(builtIn.getByRole("listitem", { name: "member" })).toContainText("See roles");
  await expect(page.getByText("No roles of its own yet.")).toBeVisible();
  // The owner holds every permission: nothing is disabled, and no note says so.
  await expect(page.getByText("You can only give permissions you have yourself")).toHaveCount(0);
  await expectNoAxeViolations(page, "roles page, none yet");

  // A name a role column cannot hold is refused next to the field; then a real one, with two boxes ticked.
  await page.getByLabel("Role name").fill("billing,admin");
  await page.getByRole("button", { name: "Create role" }).click();
  await expect(page.getByText("Use 1 to 50 lower-case letters").first()).toBeVisible();
  await page.getByLabel("Role name").fill("Billing");
  const invitations = page.getByRole("group", { name: "Invitations" });
  await invitations.getByLabel("Invite people").check();
  await page.getByRole("group", { name: "Teams" }).getByLabel("Create teams").check();
  await expect(page.locator('input[type="checkbox"][name="permission"][value="team:create"]')).toBeChecked();
  await page.getByRole("button", { name: "Create role" }).click();
  await expect(page.getByText("Role billing created.")).toBeVisible();
  const own = page.getByRole("list", { name: "This organization's roles" });
  await expect(own.getByRole("listitem", { name: "billing" })).toContainText("held by 0 members");
  await expect(own.getByRole("listitem", { name: "billing" })).toContainText("Invite people, Create teams");

  // The members tab offers it; the owner gives it to the colleague.
  await tabs.getByRole("link", { name: "Members" }).click();
  const row = page.getByRole("listitem", { name: colleague.email, exact: true });
  await row.getByLabel(`Role of ${colleague.email}`).selectOption("billing");
  await row.getByRole("button", { name: "Change role" }).click();
  await expect(row.getByTestId("member-role")).toHaveText("billing");
  await expect(page.getByLabel("Role", { exact: true }).locator("option")).toContainText(["billing"]);

  // Its page: the same boxes, checked; in use, so no delete button but what to do first.
  await tabs.getByRole("link", { name: "Roles" }).click();
  await expect(own.getByRole("listitem", { name: "billing" })).toContainText("held by 1 member");
  await own.getByRole("link", { name: "billing" }).click();
  await expect(page).toHaveURL(`/organizations/${slug}/roles/billing`);
  await expect(page.getByRole("group", { name: "Invitations" }).getByLabel("Invite people")).toBeChecked();
  await expect(page.getByRole("group", { name: "Invitations" }).getByLabel("Cancel invitations")).not.toBeChecked();
  await expect(page.getByTestId("role-in-use")).toHaveText("Held by 1 member: change their role first.");
  await expect(page.getByRole("button", { name: "Delete role" })).toHaveCount(0);
  await expectNoAxeViolations(page, "a role in use");

  // Renamed and changed: the holder keeps it under its new name.
  await page.getByLabel("Role name").fill("accounts");
  await page.getByRole("group", { name: "Invitations" }).getByLabel("Cancel invitations").check();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(`/organizations/${slug}/roles/accounts`);
  await expect(page.getByText("Role accounts saved.")).toBeVisible();
  await expect(page.getByRole("group", { name: "Invitations" }).getByLabel("Cancel invitations")).toBeChecked();
  await tabs.getByRole("link", { name: "Members" }).click();
  await expect(row.getByTestId("member-role")).toHaveText("accounts");

  // Taken back, the role can go.
  await row.getByLabel(`Role of ${colleague.email}`).selectOption("member");
  await row.getByRole("button", { name: "Change role" }).click();
  await expect(row.getByTestId("member-role")).toHaveText("member");
  await page.goto(`/organizations/${slug}/roles/accounts`);
  await page.getByRole("button", { name: "Delete role" }).click();
  await expect(page).toHaveURL(`/organizations/${slug}/roles`);
  await expect(page.getByText("Role accounts deleted.")).toBeVisible();
  await expect(page.getByText("No roles of its own yet.")).toBeVisible();
  // (Asked without navigating: a page that shows a 404 counts as one that logged an error.)
  expect((await page.request.get(`/organizations/${slug}/roles/accounts`)).status()).toBe(404);

  // A phone's width: nothing scrolls sideways.
  await page.setViewportSize({ width: 320, height: 640 });
  await page.reload();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await expectNoAxeViolations(page, "roles page on a phone");
  await page.setViewportSize({ width: 1280, height: 720 });

  // An admin sees every box, but those for permissions they lack are disabled, with the reason on the page.
  const admin = await browser.newPage({ javaScriptEnabled: false });
  const adminEmail = uniqueEmail("roles-admin");
  await signUp(admin, { name: "Ada Admin", email: adminEmail, password: PASSWORD });
  addToOrganization(appServer.database.file, slug, userIdOf(appServer.database.file, adminEmail), "admin");
  await admin.goto(`/organizations/${slug}/roles`);
  await expect(admin.getByText("You can only give permissions you have yourself")).toBeVisible();
  await expect(admin.getByRole("group", { name: "Organization" }).getByLabel("Delete the organization")).toBeDisabled();
  await expect(admin.getByRole("group", { name: "Organization" }).getByLabel("Change the organization's name, slug and logo")).toBeEnabled();
  await expectNoAxeViolations(admin, "roles page for an admin");
  // The members tab offers an admin no owner role.
  await admin.goto(`/organizations/${slug}`);
  await expect(admin.getByLabel("Role", { exact: true }).locator("option")).toHaveText(["admin", "member"]);
  await admin.close();

  // Someone who is not a member gets a 404 for both pages.
  const stranger = await browser.newPage({ javaScriptEnabled: false });
  await signUp(stranger, { name: "Stray", email: uniqueEmail("stray"), password: PASSWORD });
  expect((await stranger.goto(`/organizations/${slug}/roles`))?.status()).toBe(404);
  expect((await stranger.goto(`/organizations/${slug}/roles/billing`))?.status()).toBe(404);
  await stranger.close();
});

test.describe("with JavaScript on", () => {
  test.use({ javaScriptEnabled: true });

  test("the same forms create, change and delete a role, and a bad name is refused next to its field", async ({ page }) => {
    const slug = `roles-js-${Date.now().toString(36)}`;
    await signUp(page, { name: "Jo Script", email: uniqueEmail("roles-js"), password: PASSWORD });
    await expect(page).toHaveURL("/account");
    await page.goto("/organizations");
    await waitForHydration(page);
    await page.getByLabel("Name", { exact: true }).fill("Scripted Roles");
    await page.getByLabel("Slug").fill(slug);
    await page.getByRole("button", { name: "Create organization" }).click();
    await expect(page).toHaveURL(`/organizations/${slug}`);
    await page.goto(`/organizations/${slug}/roles`);
    await waitForHydration(page);
    await page.getByLabel("Role name").fill("two words");
    await page.getByRole("button", { name: "Create role" }).click();
    await expect(page.getByText("Use 1 to 50 lower-case letters").first()).toBeVisible();
    await page.getByLabel("Role name").fill("Support");
    await page.getByRole("group", { name: "Teams" }).getByLabel("Rename teams").check();
    await page.getByRole("button", { name: "Create role" }).click();
    await expect(page.getByText("Role support created.")).toBeVisible();
    await page.getByRole("list", { name: "This organization's roles" }).getByRole("link", { name: "support" }).click();
    await expect(page.getByRole("group", { name: "Teams" }).getByLabel("Rename teams")).toBeChecked();
    await page.getByRole("group", { name: "Teams" }).getByLabel("Delete teams").check();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Role support saved.")).toBeVisible();
    await expect(page.getByRole("group", { name: "Teams" }).getByLabel("Delete teams")).toBeChecked();
    await page.getByRole("button", { name: "Delete role" }).click();
    await expect(page).toHaveURL(`/organizations/${slug}/roles`);
    await expect(page.getByText("Role support deleted.")).toBeVisible();
  });
});
