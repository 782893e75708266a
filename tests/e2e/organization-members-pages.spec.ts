// A large organization's page lists its members a page at a time (issue 28, ADR 044), with JavaScript off: the
// first 50 and where they sit in the list, "Next" to the next page, "Previous" back. The extra
// members go straight into the server's database (invitations are another spec's story).
import Database from "better-sqlite3";
import { expect, expectNoAxeViolations, signUp, test, uniqueEmail, PASSWORD, waitForHydration } from "./fixtures";

test.use({ javaScriptEnabled: false });

const EXTRA = 60;

/** Adds `count` users to the organization `slug`, joining after everyone there (the e2e server's SQLite file). */
function addMembers(databaseFile: string, slug: string, count: number) {
  const db = new Database(databaseFile);
  db.pragma("busy_timeout = 10000");
  try {
    const { id } = db.prepare(`SELECT "id" FROM "organization" WHERE "slug" = ?`).get(slug) as { id: string };
    const later = (i: number) => new Date(Date.now() + 60_000 + i * 1000).toISOString().replace("Z", "+00:00");
    const user = db.prepare(`INSERT INTO "user" ("id", "name", "email", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?)`);
    const member = db.prepare(`INSERT INTO "member" ("id", "organizationId", "userId", "role", "createdAt") VALUES (?, ?, ?, 'member', ?)`);
    db.transaction(() => {
      for (let i = 1; i <= count; i++) {
        const userId = `${slug}-user-${i}`;
        user.run(userId, `Member ${String(i).padStart(2, "0")}`, `${slug}-${i}@example.com`, later(i), later(i));
        member.run(`${slug}-member-${i}`, id, userId, later(i));
      }
    })();
  } finally {
    db.close();
  }
}

test("a large organization's members come a page at a time, with links to the next and previous pages", async ({ page, appServer }) => {
  const slug = `big-${Date.now().toString(36)}`;
  await signUp(page, { name: "Paige Pager", email: uniqueEmail("pager"), password: PASSWORD });
  await page.goto("/organizations");
  await page.getByLabel("Name", { exact: true }).fill("Big Team");
  await page.getByLabel("Slug").fill(slug);
  await page.getByRole("button", { name: "Create organization" }).click();
  await expect(page).toHaveURL(`/organizations/${slug}`);
  addMembers(appServer.database.file, slug, EXTRA);

  await page.goto(`/organizations/${slug}`);
  const members = page.getByRole("list", { name: "Members" }).getByRole("listitem");
  await expect(members).toHaveCount(50);
  await expect(members.first()).toContainText("Paige Pager");
  await expect(page.getByTestId("members-shown")).toHaveText(`Members 1–50 of ${EXTRA + 1}`);
  const pager = page.getByRole("navigation", { name: "Pages of members" });
  await expect(pager.getByRole("link", { name: "Previous page of members" })).toHaveCount(0);
  await expectNoAxeViolations(page, "first page of members");

  await pager.getByRole("link", { name: "Next page of members" }).click();
  await expect(page).toHaveURL(`/organizations/${slug}?members=2#members`);
  await expect(members).toHaveCount(EXTRA + 1 - 50);
  await expect(members.first()).toContainText("Member 50");
  await expect(page.getByTestId("members-shown")).toHaveText(`Members 51–${EXTRA + 1} of ${EXTRA + 1}`);
  await expect(pager.getByRole("link", { name: "Next page of members" })).toHaveCount(0);
  await expectNoAxeViolations(page, "last page of members");

  await pager.getByRole("link", { name: "Previous page of members" }).click();
  await expect(page).toHaveURL(`/organizations/${slug}?members=1#members`);
  await expect(members).toHaveCount(50);

  // A page past the end says so and leads back; nonsense shows the first page.
  await page.goto(`/organizations/${slug}?members=9`);
  await expect(page.getByTestId("members-shown")).toHaveText(`No members on this page; there are ${EXTRA + 1}.`);
  await expect(pager.getByRole("link", { name: "Previous page of members" })).toHaveAttribute("href", `/organizations/${slug}?members=2#members`);
  await page.goto(`/organizations/${slug}?members=abc`);
  await expect(members).toHaveCount(50);
});

test.describe("with JavaScript on", () => {
  test.use({ javaScriptEnabled: true });

  test("following a pager link moves focus to the list's heading; a first load leaves focus alone", async ({ page, appServer }) => {
    const slug = `focus-${Date.now().toString(36)}`;
    await signUp(page, { name: "Paige Focus", email: uniqueEmail("pager-focus"), password: PASSWORD });
    await expect(page).not.toHaveURL(/\/sign-up/); // signed in before the next page is asked for
    await page.goto("/organizations");
    await page.getByLabel("Name", { exact: true }).fill("Focus Team");
    await page.getByLabel("Slug").fill(slug);
    await page.getByRole("button", { name: "Create organization" }).click();
    await expect(page).toHaveURL(`/organizations/${slug}`);
    addMembers(appServer.database.file, slug, EXTRA);

    await page.goto(`/organizations/${slug}`);
    await waitForHydration(page);
    const heading = page.getByRole("heading", { level: 2, name: "Members" });
    await expect(heading).not.toBeFocused();
    await page.getByRole("navigation", { name: "Pages of members" }).getByRole("link", { name: "Next page of members" }).click();
    await expect(page.getByTestId("members-shown")).toHaveText(`Members 51–${EXTRA + 1} of ${EXTRA + 1}`);
    await expect(heading).toBeFocused();
    await expectNoAxeViolations(page, "second page of members, focused, JavaScript on");
  });
});
