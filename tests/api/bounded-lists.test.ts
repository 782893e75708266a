// Every list the API returns is one page (issue 28, ADR 044): Better Auth's default of 100 without a limit,
// limit/offset to page on, list-members' order, filter and total, get-full-organization's membersLimit. The large
// rows go straight into the database (sign-ups and invitations are tested elsewhere).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, signUp, uniqueEmail } from "../support/client";
import { startServer, type TestServer } from "../support/server";
import { query } from "../support/sql";

const ORG = "/api/auth/organization";
const MEMBERS = 150; // besides the owner
const INVITATIONS = 120;
const SESSIONS = 130; // besides the signed-in one
const ORGANIZATIONS = 105; // the second user's

let server: TestServer;
let owner: ApiClient;
let ownerId: string;
let organizationId: string;
let joiner: ApiClient;
const start = Date.now() - 10 * 24 * 3_600_000;
/** A time as each database keeps it (Prisma writes SQLite's DateTime as ISO text with "+00:00"). */
const at = (minutes: number) => {
  const date = new Date(start + minutes * 60_000);
  return server.database.kind === "sqlite" ? date.toISOString().replace("Z", "+00:00") : date;
};

/** One INSERT of many rows, `columns` per row, in `size`-row statements. */
async function insertRows(table: string, columns: string[], rows: unknown[][], size = 200) {
  for (let i = 0; i < rows.length; i += size) {
    const chunk = rows.slice(i, i + size);
    const values = chunk.map(() => `(${columns.map(() => "?").join(", ")})`).join(", ");
    await query(server.database, `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES ${values}`, chunk.flat());
  }
}

beforeAll(async () => {
  server = await startServer({ env: { AUTH_EMAIL_VERIFICATION: "off" } });
  owner = new ApiClient(server.baseUrl);
  ownerId = (await signUp(owner, { email: uniqueEmail("lists-owner") })).user.id;
  const created = await owner.post(`${ORG}/create`, { name: "Big", slug: `big-${Date.now().toString(36)}` });
  expect(created.status, created.text).toBe(200);
  organizationId = created.body.id;

  const ids = Array.from({ length: MEMBERS }, (_, i) => `lists-user-${String(i).padStart(4, "0")}`);
  await insertRows("user", ["id", "name", "email", "createdAt", "updatedAt"], ids.map((id, i) => [id, `Member ${i}`, `${id}@example.com`, at(i), at(i)]));
  await insertRows(
    "member",
    ["id", "organizationId", "userId", "role", "createdAt"],
    // Every tenth an admin; they join one minute apart, after the owner (who joined now).
    ids.map((id, i) => [`lists-member-${String(i).padStart(4, "0")}`, organizationId, id, i % 10 === 0 ? "admin" : "member", at(20_000 + i)]),
  );
  await insertRows(
    "invitation",
    ["id", "organizationId", "email", "role", "status", "inviterId", "expiresAt", "createdAt"],
    Array.from({ length: INVITATIONS }, (_, i) => [`lists-inv-${String(i).padStart(4, "0")}`, organizationId, `invitee-${i}@example.com`, "member", "pending", ownerId, at(30_000), at(i)]),
  );
  await insertRows(
    "session",
    ["id", "userId", "token", "expiresAt", "createdAt", "updatedAt"],
    Array.from({ length: SESSIONS }, (_, i) => [`lists-session-${String(i).padStart(4, "0")}`, ownerId, `lists-token-${i}-${Math.random()}`, at(30_000), at(i), at(i)]),
  );

  joiner = new ApiClient(server.baseUrl);
  const joinerId = (await signUp(joiner, { email: uniqueEmail("lists-joiner") })).user.id;
  const orgIds = Array.from({ length: ORGANIZATIONS }, (_, i) => `lists-org-${String(i).padStart(4, "0")}`);
  await insertRows("organization", ["id", "name", "slug", "createdAt"], orgIds.map((id, i) => [id, `Org ${i}`, id, at(i)]));
  await insertRows("member", ["id", "organizationId", "userId", "role", "createdAt"], orgIds.map((id, i) => [`${id}-m`, id, joinerId, "member", at(i)]));
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

describe("list-members", () => {
  it("without a limit gives Better Auth's 100 in joining order, with the total", async () => {
    const response = await owner.get(`${ORG}/list-members?organizationId=${organizationId}`);
    expect(response.status, response.text).toBe(200);
    expect(response.body.total).toBe(MEMBERS + 1);
    expect(response.body.members).toHaveLength(100);
    const times = response.body.members.map((m: { createdAt: string }) => Date.parse(m.createdAt));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(response.body.members[0].user).toMatchObject({ email: expect.stringContaining("@") });
  });

  it("pages with limit and offset: every member once, none repeated", async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < MEMBERS + 1; offset += 40) {
      const page = await owner.get(`${ORG}/list-members?organizationId=${organizationId}&limit=40&offset=${offset}`);
      expect(page.status, page.text).toBe(200);
      expect(page.body.total).toBe(MEMBERS + 1);
      seen.push(...page.body.members.map((m: { id: string }) => m.id));
    }
    expect(seen).toHaveLength(MEMBERS + 1);
    expect(new Set(seen).size).toBe(MEMBERS + 1);
    const past = await owner.get(`${ORG}/list-members?organizationId=${organizationId}&offset=${MEMBERS + 5}`);
    expect(past.body).toEqual({ members: [], total: MEMBERS + 1 });
  });

  it("sorts by a member field in either direction, and filters on one with its total", async () => {
    const newest = await owner.get(`${ORG}/list-members?organizationId=${organizationId}&sortBy=createdAt&sortDirection=desc&limit=3`);
    expect(newest.status, newest.text).toBe(200);
    expect(newest.body.members.map((m: { id: string }) => m.id)).toEqual(["lists-member-0149", "lists-member-0148", "lists-member-0147"]);
    const admins = await owner.get(`${ORG}/list-members?organizationId=${organizationId}&filterField=role&filterValue=admin`);
    expect(admins.body.total).toBe(MEMBERS / 10);
    expect(admins.body.members.every((m: { role: string }) => m.role === "admin")).toBe(true);
    const notMembers = await owner.get(`${ORG}/list-members?organizationId=${organizationId}&filterField=role&filterOperator=ne&filterValue=member`);
    expect(notMembers.body.total).toBe(MEMBERS / 10 + 1); // the admins and the owner
  });

  it("refuses a limit or an order it does not take with a 400 that names the parameter", async () => {
    for (const bad of ["limit=0", "limit=1001", "limit=ten", "offset=-1", "sortBy=password", "sortDirection=up", "filterField=user.email&filterValue=x"]) {
      const response = await owner.get(`${ORG}/list-members?organizationId=${organizationId}&${bad}`);
      expect(response.status, bad).toBe(400);
      expect(response.body.code, bad).toBe("VALIDATION_ERROR");
      expect(response.body.message, bad).toContain(`[query.${bad.split("=")[0]}]`);
    }
  });
});

describe("get-full-organization and set-active", () => {
  it("bring the first 100 members (membersLimit fewer or more) and the latest 100 invitations, oldest first", async () => {
    const full = await owner.get(`${ORG}/get-full-organization?organizationId=${organizationId}`);
    expect(full.status, full.text).toBe(200);
    expect(full.body.members).toHaveLength(100);
    expect(full.body.members[0].userId).toBe(ownerId);
    expect(full.body.invitations).toHaveLength(100);
    expect(full.body.invitations[0].id).toBe(`lists-inv-${String(INVITATIONS - 100).padStart(4, "0")}`);
    expect(full.body.invitations[99].id).toBe(`lists-inv-${String(INVITATIONS - 1).padStart(4, "0")}`);

    const few = await owner.get(`${ORG}/get-full-organization?organizationId=${organizationId}&membersLimit=5`);
    expect(few.body.members).toHaveLength(5);
    const all = await owner.get(`${ORG}/get-full-organization?organizationId=${organizationId}&membersLimit=1000`);
    expect(all.body.members).toHaveLength(MEMBERS + 1);
    expect((await owner.get(`${ORG}/get-full-organization?organizationId=${organizationId}&membersLimit=0`)).status).toBe(400);
  });

  it("set-active answers with the organization's first page of members, not all of them", async () => {
    const response = await owner.post(`${ORG}/set-active`, { organizationId });
    expect(response.status, response.text).toBe(200);
    expect(response.body.id).toBe(organizationId);
    expect(response.body.members).toHaveLength(100);
  });
});

describe("the other lists", () => {
  it("list-invitations: the first 100, oldest first, then paged", async () => {
    const first = await owner.get(`${ORG}/list-invitations?organizationId=${organizationId}`);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toHaveLength(100);
    expect(first.body[0].id).toBe("lists-inv-0000");
    const rest = await owner.get(`${ORG}/list-invitations?organizationId=${organizationId}&offset=100`);
    expect(rest.body.map((i: { id: string }) => i.id)).toEqual(Array.from({ length: INVITATIONS - 100 }, (_, i) => `lists-inv-${String(100 + i).padStart(4, "0")}`));
  });

  it("list-sessions: the 100 most recently used, then paged", async () => {
    const first = await owner.get("/api/auth/list-sessions");
    expect(first.status, first.text).toBe(200);
    expect(first.body).toHaveLength(100);
    const updated = first.body.map((s: { updatedAt: string }) => Date.parse(s.updatedAt));
    expect([...updated].sort((a, b) => b - a)).toEqual(updated);
    const rest = await owner.get("/api/auth/list-sessions?limit=100&offset=100");
    expect(rest.body).toHaveLength(SESSIONS + 1 - 100);
    expect((await owner.get("/api/auth/list-sessions?limit=5000")).status).toBe(400);
  });

  it("organization/list: the first 100 of a user's organizations, in joining order, then paged", async () => {
    const first = await joiner.get(`${ORG}/list`);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toHaveLength(100);
    expect(first.body[0].id).toBe("lists-org-0000");
    const rest = await joiner.get(`${ORG}/list?limit=10&offset=100`);
    expect(rest.body.map((o: { id: string }) => o.id)).toEqual(Array.from({ length: ORGANIZATIONS - 100 }, (_, i) => `lists-org-${String(100 + i).padStart(4, "0")}`));
  });
});

describe("the pages page through the same way", () => {
  /** The organizations' links the Organizations page lists, and its pager's links, as a browser without JavaScript gets them. */
  async function organizationsPage(query = "") {
    const page = await joiner.get(`/organizations${query}`, { accept: "text/html" });
    expect(page.status).toBe(200);
    const list = /<ul[^>]*aria-label="Your organizations"[^>]*>([\s\S]*?)<\/ul>/.exec(page.text)?.[1] ?? "";
    return {
      listed: [...list.matchAll(/<a [^>]*href="\/organizations\/([^"]+)"/g)].map((match) => match[1]),
      more: pagerLink(page.text, "next"),
      earlier: pagerLink(page.text, "prev"),
      text: page.text,
    };
  }

  /** The page number a pager link with `rel` leads to, whatever the order of its attributes. */
  const pagerLink = (html: string, rel: "next" | "prev") =>
    [...html.matchAll(/<a [^>]*>/g)].map(([tag]) => (tag.includes(`rel="${rel}"`) ? /href="\/organizations\?page=(\d+)"/.exec(tag)?.[1] : undefined)).find(Boolean) ?? null;

  it("a person in more organizations than fit sees 50 at a time and reaches every one by plain links", async () => {
    const first = await organizationsPage();
    expect(first.listed).toHaveLength(50);
    expect(first.more).toBe("2");
    expect(first.earlier).toBeNull();
    expect(first.text).toContain(`Organizations 1–50 of ${ORGANIZATIONS}`);
    const seen = [...first.listed];
    for (let at = first.more; at; ) {
      const next = await organizationsPage(`?page=${at}`);
      expect(next.earlier).toBe(String(Number(at) - 1));
      seen.push(...next.listed);
      at = next.more;
    }
    expect(seen).toHaveLength(ORGANIZATIONS);
    expect(new Set(seen).size).toBe(ORGANIZATIONS);
    // A page past the end says so and leads back.
    const past = await organizationsPage("?page=9");
    expect(past.listed).toEqual([]);
    expect(past.text).toContain(`No organizations on this page; there are ${ORGANIZATIONS}.`);
    expect(past.earlier).toBe("3");
  });

  it("the switcher lists the first 100 and says where the rest are; an active organization past them is still shown selected", async () => {
    const options = (html: string) => [...(/<select id="active-organization"[^>]*>([\s\S]*?)<\/select>/.exec(html)?.[1] ?? "").matchAll(/<option ([^>]*)>/g)].map(([, attributes]) => attributes);
    const before = await organizationsPage();
    expect(options(before.text)).toHaveLength(1 + 100); // "None" and the first 100
    expect(before.text).toContain("all of them are on the Organizations page");
    const last = `lists-org-${String(ORGANIZATIONS - 1).padStart(4, "0")}`;
    expect((await joiner.post(`${ORG}/set-active`, { organizationId: last })).status).toBe(200);
    const after = options((await organizationsPage()).text);
    expect(after).toHaveLength(1 + 101);
    expect(after.filter((attributes) => attributes.includes("selected"))).toEqual([`value="${last}" selected=""`]);
    expect((await joiner.post(`${ORG}/set-active`, { organizationId: null })).status).toBe(200);
  });
});
