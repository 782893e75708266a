// The flows pages, in every language (tests/e2e/every-language/check.ts): an invitation from its e-mail link (signed
// out, as the invitee, as someone else, withdrawn), an application's consent page, "Confirm it's you", and the page
// a mailed verification link opens in another browser.
import { request as newRequestContext, expect, type APIRequestContext } from "@playwright/test";
import { PASSWORD, uniqueEmail } from "../fixtures";
import { linkFromMail } from "../mail";
import { authorizationRequest, registerClient, relyingParty } from "../../support/oidc-clients";
import type { OpenContext, PageInEveryLanguage } from "./pages";

const ORG = "/api/auth/organization";
const ORGANIZATION = "Acme Corp";
const TEAMS = ["Design", "Ops"];
const INVITE_MAIL = /invited to join an organization/;
const CHROME_ON_LINUX = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

async function ok(answer: Awaited<ReturnType<APIRequestContext["post"]>>): Promise<{ id: string }> {
  expect(answer.status(), await answer.text()).toBe(200);
  return (await answer.json()) as { id: string };
}

/**
 * An owner (in a request context of their own, so the page's cookies stay as they are) invites `email` to an
 * organization, into two teams; the invitation's id and its mailed link.
 */
async function invitation({ baseURL }: OpenContext, email: string) {
  const owner = await newRequestContext.newContext({ baseURL, extraHTTPHeaders: { Origin: baseURL } });
  try {
    await ok(await owner.post("/api/auth/sign-up/email", { data: { name: "Olive Owner", email: uniqueEmail("owner"), password: PASSWORD } }));
    const slug = `acme-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
    const org = await ok(await owner.post(`${ORG}/create`, { data: { name: ORGANIZATION, slug } }));
    const teamIds: string[] = [];
    for (const name of TEAMS) teamIds.push((await ok(await owner.post(`${ORG}/create-team`, { data: { name, organizationId: org.id } }))).id);
    const invited = await ok(await owner.post(`${ORG}/invite-member`, { data: { email, role: "admin", organizationId: org.id, teamId: teamIds } }));
    const link = await linkFromMail(email, INVITE_MAIL);
    return { id: invited.id, link, cancel: () => owner.post(`${ORG}/cancel-invitation`, { data: { invitationId: invited.id } }), dispose: () => owner.dispose() };
  } catch (error) {
    await owner.dispose();
    throw error;
  }
}

/** What the invitation page rightly keeps: the organization's and teams' names, the owner's name and addresses. */
const INVITATION_KEPT = [ORGANIZATION, ...TEAMS, "Olive Owner", /@example\.com/];

export const flowsPages: PageInEveryLanguage[] = [
  {
    name: "an invitation, signed out",
    signedOut: true,
    async open(context) {
      const invited = await invitation(context, uniqueEmail("newcomer"));
      await invited.dispose();
      return new URL(invited.link).pathname + new URL(invited.link).search;
    },
    kept: INVITATION_KEPT,
  },
  {
    name: "an invitation, signed in as the invitee whose address is not verified",
    async open(context) {
      const invited = await invitation(context, context.user.email);
      await invited.dispose();
      // Without the link's secret: the page asks to verify the address first, with a way to get the mail again.
      return `/invitations/${invited.id}`;
    },
    kept: INVITATION_KEPT,
  },
  {
    name: "an invitation, signed in as the invitee from the mailed link",
    async open(context) {
      const invited = await invitation(context, context.user.email);
      await invited.dispose();
      return new URL(invited.link).pathname + new URL(invited.link).search;
    },
    kept: INVITATION_KEPT,
  },
  {
    name: "an invitation, signed in as someone else",
    async open(context) {
      const invited = await invitation(context, uniqueEmail("someone"));
      await invited.dispose();
      return `/invitations/${invited.id}`;
    },
    kept: INVITATION_KEPT,
  },
  {
    name: "an invitation that was withdrawn",
    signedOut: true,
    async open(context) {
      const invited = await invitation(context, uniqueEmail("withdrawn"));
      await ok(await invited.cancel());
      await invited.dispose();
      return `/invitations/${invited.id}`;
    },
    kept: INVITATION_KEPT,
  },
  {
    name: "an application's consent page",
    async open({ page, appServer, baseURL }) {
      const app = await registerClient(appServer.database, { name: "Team Wiki", redirectUri: "https://wiki.example.com/callback", homepageUrl: "https://wiki.example.com" });
      const config = await relyingParty(app, baseURL);
      const { url } = await authorizationRequest(config, app, { scope: "openid profile email offline_access", prompt: "consent" });
      // The browser follows the provider to the interaction page, whose address is then opened in each language.
      await page.goto(url.href);
      await expect(page).toHaveURL(/\/oauth2\/interaction\//);
      return new URL(page.url()).pathname;
    },
    kept: ["Team Wiki", "wiki.example.com"],
  },
  {
    name: "confirm it's you",
    async open() {
      return `/reverify?${new URLSearchParams({ redirectTo: "/account/security" })}`;
    },
  },
  {
    name: "a mailed verification link opened in another browser",
    signedOut: true,
    async open({ page, baseURL }) {
      // The account is made elsewhere (its own request context, a browser of its own): this browser holds the link.
      const elsewhere = await newRequestContext.newContext({ baseURL, extraHTTPHeaders: { Origin: baseURL, "User-Agent": CHROME_ON_LINUX } });
      const email = uniqueEmail("elsewhere");
      try {
        await ok(await elsewhere.post("/api/auth/sign-up/email", { data: { name: "Ada Lovelace", email, password: PASSWORD } }));
      } finally {
        await elsewhere.dispose();
      }
      await page.goto(await linkFromMail(email, /Verify your email/));
      await expect(page).toHaveURL(/\/confirm-email\?token=/);
      return new URL(page.url()).pathname + new URL(page.url()).search;
    },
  },
  {
    name: "single sign-on",
    signedOut: true,
    open: async () => "/sign-in/sso",
  },
];
