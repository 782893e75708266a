// Teams inside organizations (issue 42) with JavaScript off: the organization's tabs, creating a team, adding and
// removing a member, making it one's active team, deleting it behind its confirmation (and the last team's
// sentence instead), the invite form's team boxes, a non-member's 404 — with axe on each state and a phone width.
import Database from "better-sqlite3";
import { expect, expectNoAxeViolations, signUp, test, uniqueEmail, PASSWORD, waitForHydration } from "./fixtures";

test.use({ javaScriptEnabled: false });

/** Puts a colleague into the organization `slug` (the e2e server's SQLite file): invitations are another story. */
function addColleague(databaseFile: string, slug: string, name: string): string {
  const db = new Database(databaseFile);
  db.pragma("busy_timeout = 10000");
  try {
    const { id } = db.prepare(`SELECT "id" FROM "organization" WHERE "slug" = ?`).get(slug) as { id: string };
    const now = new Date().toISOString().replace("Z", "+00:00");
    const userId = `${slug}-colleague`;
    db.prepare(`INSERT INTO "user" ("id", "name", "email", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?)`).run(userId, name, `${slug}-colleague@example.com`, now, now);
    db.prepare(`INSERT INTO "member" ("id", "organizationId", "userId", "role", "createdAt") VALUES (?, ?, ?, 'member', ?)`).run(`${slug}-m`, id, userId, now);
    return `${slug}-colleague@example.com`;
  } finally {
    db.close();
  }
}

/** The names of the teams the invitation of `email` names (read from the e2e server's SQLite file). */
function invitationTeams(databaseFile: string, email: string): string[] {
  const db = new Database(databaseFile, { readonly: true });
  try {
    const { teamId } = db.prepare(`SELECT "teamId" FROM "invitation" WHERE "email" = ?`).get(email) as { teamId: string | null };
    return (teamId ?? "").split(",").filter(Boolean).map((id) => (db.prepare(`SELECT "name" FROM "team" WHERE "id" = ?`).get(id) as { name: string }).name);
  } finally {
    db.close();
  }
}

test("an owner creates a team, fills and empties it, makes it active and deletes it", async ({ page, appServer, browser }) => {
  const slug = `teams-${Date.now().toString(36)}`;
  await signUp(page, { name: "Tess Teams", email: uniqueEmail("teams"), password: PASSWORD });
  await page.goto("/organizations");
  await page.getByLabel("Name", { exact: true }).fill("Team Works");
  await page.getByLabel("Slug").fill(slug);
  await page.getByRole("button", { name: "Create organization" }).click();
  await expect(page).toHaveURL(`/organizations/${slug}`);
  const colleague = addColleague(appServer.database.file, slug, "Cole League");

  const tabs = page.getByRole("navigation", { name: "Organization" });
  await expect(tabs.getByRole("link", { name: "Members" })).toHaveAttribute("aria-current", "page");
  await tabs.getByRole("link", { name: "Teams" }).click();
  await expect(page).toHaveURL(`/organizations/${slug}/teams`);
  await expect(tabs.getByRole("link", { name: "Teams" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByText("No teams yet.")).toBeVisible();
  await expectNoAxeViolations(page, "teams page, none yet");

  // A name that is only spaces is refused next to the field; a real one is created.
  await page.getByLabel("Team name").fill("   ");
  await page.getByRole("button", { name: "Create team" }).click();
  await expect(page.getByText("Team name is required").first()).toBeVisible();
  await page.getByLabel("Team name").fill("Design");
  await page.getByRole("button", { name: "Create team" }).click();
  await expect(page.getByText("Team Design created.")).toBeVisible();
  const teams = page.getByRole("list", { name: "Teams" });
  await expect(teams.getByRole("listitem", { name: "Design" })).toContainText("0 members");

  await teams.getByRole("link", { name: "Design" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Design" })).toBeVisible();
  await expect(page.getByTestId("last-team")).toContainText("only team");
  await expectNoAxeViolations(page, "an empty team");
  await page.getByLabel("Add to team").selectOption({ label: `Cole League (${colleague})` });
  await page.getByRole("button", { name: "Add to team" }).click();
  await expect(page.getByText("Added to the team.")).toBeVisible();
  const members = page.getByRole("list", { name: "Team members" });
  await expect(members.getByRole("listitem")).toHaveCount(1);
  await expect(page.getByLabel("Add to team").locator("option")).toHaveText([/Tess Teams/]);
  await page.getByRole("button", { name: "Add to team" }).click();
  await expect(members.getByRole("listitem")).toHaveCount(2);
  await expect(page.getByText("Everyone in the organization is in this team.")).toBeVisible();
  await page.getByRole("button", { name: `Remove from team: ${colleague}` }).click();
  await expect(page.getByText("Removed from the team. They are still in the organization.")).toBeVisible();
  await expect(members.getByRole("listitem")).toHaveCount(1);
  await expectNoAxeViolations(page, "a team with a member");

  // Renaming: Save.
  await page.getByLabel("Team name").fill("Design Crew");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("The team is now called Design Crew.")).toBeVisible();

  // Make active, from the list.
  await tabs.getByRole("link", { name: "Teams" }).click();
  await page.getByRole("button", { name: "Make active: Design Crew" }).click();
  await expect(page.getByText("Design Crew is your active team.")).toBeVisible();
  await expect(page.getByTestId("active-team")).toHaveText("Your active team");
  await expect(page.getByRole("list", { name: "Teams" }).getByRole("listitem", { name: "Design Crew" })).toContainText("1 member · you are in it");

  // The invite form offers the teams.
  await tabs.getByRole("link", { name: "Members" }).click();
  const invitee = uniqueEmail("team-invitee");
  await page.getByLabel("Email").fill(invitee);
  await page.getByRole("group", { name: "Teams (optional)" }).getByLabel("Design Crew").check();
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByText(`Invitation sent to ${invitee}.`)).toBeVisible();
  expect(invitationTeams(appServer.database.file, invitee)).toEqual(["Design Crew"]);

  // With a second team, the first may be deleted, after a confirmation saying members stay.
  await tabs.getByRole("link", { name: "Teams" }).click();
  await page.getByLabel("Team name").fill("Backup");
  await page.getByRole("button", { name: "Create team" }).click();
  await page.getByRole("list", { name: "Teams" }).getByRole("link", { name: "Design Crew" }).click();
  await page.getByRole("link", { name: "Delete team" }).click();
  await expect(page.getByRole("group", { name: "Delete Design Crew?" })).toContainText("Its members stay in the organization");
  await expectNoAxeViolations(page, "deleting a team, confirming");
  await page.getByRole("button", { name: "Delete team" }).click();
  await expect(page).toHaveURL(`/organizations/${slug}/teams`);
  await expect(page.getByText("The team was deleted. Its members are still in the organization.")).toBeVisible();
  await expect(page.getByRole("list", { name: "Teams" }).getByRole("listitem")).toHaveCount(1);

  // A phone's width: nothing scrolls sideways.
  await page.setViewportSize({ width: 320, height: 640 });
  await page.reload();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectNoAxeViolations(page, "teams page on a phone");

  // Someone who is not a member gets a 404 for both pages.
  const stranger = await browser.newPage({ javaScriptEnabled: false });
  await signUp(stranger, { name: "Stray", email: uniqueEmail("stray"), password: PASSWORD });
  expect((await stranger.goto(`/organizations/${slug}/teams`))?.status()).toBe(404);
  await stranger.close();
});

test.describe("with JavaScript on", () => {
  test.use({ javaScriptEnabled: true });

  test("the same forms create a team, add oneself and make it active", async ({ page }) => {
    const slug = `teams-js-${Date.now().toString(36)}`;
    await signUp(page, { name: "Jess Script", email: uniqueEmail("teams-js"), password: PASSWORD });
    await expect(page).not.toHaveURL(/\/sign-up/);
    await page.goto("/organizations");
    await page.getByLabel("Name", { exact: true }).fill("Scripted");
    await page.getByLabel("Slug").fill(slug);
    await page.getByRole("button", { name: "Create organization" }).click();
    await expect(page).toHaveURL(`/organizations/${slug}`);
    await page.goto(`/organizations/${slug}/teams`);
    await waitForHydration(page);
    await page.getByLabel("Team name").fill("Live");
    await page.getByRole("button", { name: "Create team" }).click();
    await expect(page.getByText("Team Live created.")).toBeVisible();
    await expect(page.getByLabel("Team name")).toHaveValue("");
    await page.getByRole("list", { name: "Teams" }).getByRole("link", { name: "Live" }).click();
    await page.getByRole("button", { name: "Add to team" }).click();
    await expect(page.getByRole("list", { name: "Team members" }).getByRole("listitem")).toHaveCount(1);
    await page.getByRole("navigation", { name: "Organization" }).getByRole("link", { name: "Teams" }).click();
    await page.getByRole("button", { name: "Make active: Live" }).click();
    await expect(page.getByTestId("active-team")).toHaveText("Your active team");
    await expectNoAxeViolations(page, "teams page, JavaScript on");
  });
});
