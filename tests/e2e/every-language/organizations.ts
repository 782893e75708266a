// The organizations pages, in every language (tests/e2e/every-language/check.ts): an organization with a second
// member, an invitation, two teams with members, a custom role held by the member and a SAML connection (no outside
// server: SAML needs none to be added), set up over HTTP with the browser's own cookies as its owner.
import { readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { expect } from "@playwright/test";
import type { OpenContext, PageInEveryLanguage } from "./pages";

const SAML_CERT = readFileSync(path.join(import.meta.dirname, "..", "..", "fixtures", "saml", "idp.crt"), "utf8");
let counter = 0;

interface Organization {
  slug: string;
  name: string;
  colleague: { id: string; name: string; email: string };
  invitee: string;
  teams: { id: string; name: string }[];
  role: string;
  providerId: string;
  domain: string;
}

/** A second person, straight into the server's SQLite file (no page makes a member without a mailed invitation). */
function addColleague(file: string, organizationId: string, unique: string, role: string) {
  const db = new Database(file);
  db.pragma("busy_timeout = 10000");
  const colleague = { id: `colleague-${unique}`, name: "Grace Hopper", email: `colleague-${unique}@example.com` };
  try {
    const now = new Date().toISOString().replace("Z", "+00:00");
    db.prepare(`INSERT INTO "user" ("id", "name", "email", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?)`).run(colleague.id, colleague.name, colleague.email, now, now);
    db.prepare(`INSERT INTO "member" ("id", "organizationId", "userId", "role", "createdAt") VALUES (?, ?, ?, ?, ?)`).run(`member-${unique}`, organizationId, colleague.id, role, now);
  } finally {
    db.close();
  }
  return colleague;
}

async function organizationWithEverything({ request, baseURL, appServer }: OpenContext): Promise<Organization> {
  const unique = `${Date.now().toString(36)}${++counter}${Math.random().toString(36).slice(2, 6)}`;
  const post = async (route: string, data: Record<string, unknown>) => {
    const answer = await request.post(`/api/auth${route}`, { data, headers: { Origin: baseURL } });
    expect(answer.status(), `${route}: ${await answer.text()}`).toBe(200);
    return answer.json();
  };
  const name = `Wiki Werkstatt ${unique}`;
  const slug = `wiki-${unique}`;
  const { id: organizationId } = await post("/organization/create", { name, slug });
  const role = `billing${unique}`.slice(0, 40);
  await post("/organization/create-role", { role, permission: { team: ["create"], invitation: ["create"] }, organizationId });
  const colleague = addColleague(appServer.database.file, organizationId, unique, role);
  const invitee = `invitee-${unique}@example.com`;
  await post("/organization/invite-member", { email: invitee, role: "member", organizationId });
  const teams = [];
  for (const teamName of [`Design ${unique}`, `Support ${unique}`]) {
    const team = await post("/organization/create-team", { name: teamName, organizationId });
    teams.push({ id: team.id as string, name: teamName });
  }
  await post("/organization/add-team-member", { teamId: teams[0].id, userId: colleague.id, organizationId });
  const providerId = `saml-${unique}`;
  const domain = `corp-${unique}.example.com`;
  await post("/sso/register", {
    providerId,
    issuer: `${baseURL}/sp/${providerId}`,
    domain,
    organizationId,
    samlConfig: { entryPoint: "https://idp.example.test/sso", cert: SAML_CERT, idpMetadata: { entityID: "https://idp.example.test/metadata" } },
  });
  return { slug, name, colleague, invitee, teams, role, providerId, domain };
}

/** What the set-up wrote, which rightly reads the same in every language. */
const keptOf = (o: Organization) => [o.name, o.colleague.name, o.colleague.email, o.invitee, ...o.teams.map((t) => t.name), o.role, o.providerId, o.domain, o.slug];

/** One entry: the organization made anew for it, and the page `at` answers for it. */
function entry(name: string, at: (o: Organization) => string): PageInEveryLanguage {
  let made: Organization | undefined;
  return {
    name,
    async open(context) {
      made = await organizationWithEverything(context);
      return at(made);
    },
    get kept() {
      return made ? keptOf(made) : [];
    },
  };
}

export const organizationsPages: PageInEveryLanguage[] = [
  entry("the list", () => "/organizations"),
  entry("an organization", (o) => `/organizations/${o.slug}`),
  entry("removing a member", (o) => `/organizations/${o.slug}?confirm=remove&member=member-${o.colleague.id.slice("colleague-".length)}`),
  entry("teams", (o) => `/organizations/${o.slug}/teams`),
  entry("a team", (o) => `/organizations/${o.slug}/teams/${o.teams[0].id}`),
  entry("deleting a team", (o) => `/organizations/${o.slug}/teams/${o.teams[1].id}?confirm=delete`),
  entry("roles", (o) => `/organizations/${o.slug}/roles`),
  entry("a role", (o) => `/organizations/${o.slug}/roles/${o.role}`),
  entry("single sign-on", (o) => `/organizations/${o.slug}/sso`),
  entry("removing a connection", (o) => `/organizations/${o.slug}/sso?confirm=remove&provider=${o.providerId}`),
];
