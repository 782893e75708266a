// One /account/* page request reads the session once: Remix runs the root's, the account layout's and the page's
// loaders side by side with one load context, and they share one read (app/http/page-session.server.ts). The
// read itself is counted where every session read goes, the session cache's `readSessionWithUser`.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { sign } from "~/auth/core/crypto.server";
import { COOKIE_NAMES } from "~/auth/session/sessions.server";
import { env } from "~/env.server";

const reads = vi.hoisted(() => ({ count: 0 }));

vi.mock("~/auth/session/cached-read.server", () => ({
  readSessionWithUser: vi.fn(async (token: string) => {
    reads.count += 1;
    // A genuine cookie naming a session that was ended elsewhere (revoked from another device).
    if (token.startsWith("gone")) return null;
    const now = new Date();
    return {
      // Extended just now: not due for another extension, so nothing is written.
      session: {
        id: "s1",
        userId: "u1",
        token,
        expiresAt: new Date(Date.now() + env.AUTH_SESSION_EXPIRES_IN * 1000),
        createdAt: now,
        updatedAt: now,
        ipAddress: null,
        userAgent: null,
        rememberMe: true,
        activeOrganizationId: null,
        activeTeamId: null,
      },
      user: { id: "u1", name: "Ada", email: "ada@example.com", emailVerified: true, image: null, username: null, displayUsername: null, twoFactorEnabled: false, inboxProvenAt: now, createdAt: now, updatedAt: now },
    };
  }),
}));
// The layout's switcher lists the user's organizations from the database; its rows are not what is counted here.
vi.mock("~/auth/organization/organizations.server", async (original) => ({
  ...(await original<typeof import("~/auth/organization/organizations.server")>()),
  switcherData: vi.fn(async (current: unknown) => (current ? { organizations: [], activeId: null } : null)),
}));

// The profile's pending change of address is a read of the verification table, not of the session.
vi.mock("~/auth/account/change-email.server", async (original) => ({
  ...(await original<typeof import("~/auth/account/change-email.server")>()),
  pendingEmailChange: vi.fn(async () => null),
}));

const { loader: rootLoader } = await import("~/root");
const { loader: accountLayoutLoader } = await import("~/routes/account");
const { loader: profileLoader } = await import("~/routes/account.profile");

function pageRequest(cookie?: string) {
  return new Request("http://localhost:3000/account/profile", { headers: cookie ? { cookie } : {} });
}

/** The three loaders of GET /account/profile, as Remix runs them: at once, with one load context. */
async function loadProfilePage(request: Request) {
  const context = { clientIp: "127.0.0.1" };
  const args = { request, context, params: {} };
  return Promise.allSettled([rootLoader(args), accountLayoutLoader(args), profileLoader(args)]);
}

type RootResult = Awaited<ReturnType<typeof rootLoader>>;
const rootData = (root: PromiseSettledResult<unknown>) => (root as PromiseFulfilledResult<RootResult>).value.data;

describe("the session of one page request", () => {
  beforeEach(() => {
    reads.count = 0;
  });

  it("is read once for the root, the account layout and the page", async () => {
    const cookie = `${COOKIE_NAMES.sessionToken}=${encodeURIComponent(sign("t".repeat(32), "session"))}`;
    const [root, layout, page] = await loadProfilePage(pageRequest(cookie));
    expect(root.status, String((root as PromiseRejectedResult).reason)).toBe("fulfilled");
    expect(layout.status).toBe("fulfilled");
    expect(page.status, String((page as PromiseRejectedResult).reason)).toBe("fulfilled");
    expect(rootData(root).viewer?.name).toBe("Ada");
    expect(rootData(root).signedOutElsewhere).toBeNull();
    expect(reads.count).toBe(1);
  });

  it("is read once per request, not once per process", async () => {
    const cookie = `${COOKIE_NAMES.sessionToken}=${encodeURIComponent(sign("t".repeat(32), "session"))}`;
    await loadProfilePage(pageRequest(cookie));
    await loadProfilePage(pageRequest(cookie));
    expect(reads.count).toBe(2);
  });

  it("a session ended elsewhere: the page says so once and clears the cookie, and the sign-in it sends to says so", async () => {
    const cookie = `${COOKIE_NAMES.sessionToken}=${encodeURIComponent(sign(`gone${"t".repeat(28)}`, "session"))}`;
    const [root, , page] = await loadProfilePage(pageRequest(cookie));
    expect(rootData(root).viewer).toBeNull();
    expect(rootData(root).signedOutElsewhere).toMatch(/^You were signed out on this browser/);
    const rootCookies = new Headers((root as PromiseFulfilledResult<RootResult>).value.init?.headers).getSetCookie();
    expect(rootCookies.some((c) => c.startsWith(`${COOKIE_NAMES.sessionToken}=;`))).toBe(true);
    const redirect = (page as PromiseRejectedResult).reason as Response;
    expect(redirect.headers.get("location")).toBe("/sign-in?redirectTo=%2Faccount%2Fprofile");
    expect(redirect.headers.getSetCookie().some((c) => c.includes("latchkey.flash="))).toBe(true);
    expect(reads.count).toBe(1);
  });

  it("signed out: nothing to read, and the page sends to sign in", async () => {
    const [root, , page] = await loadProfilePage(pageRequest());
    expect(rootData(root).viewer).toBeNull();
    expect(page.status).toBe("rejected");
    expect(((page as PromiseRejectedResult).reason as Response).headers.get("location")).toBe("/sign-in?redirectTo=%2Faccount%2Fprofile");
    expect(reads.count).toBe(0);
  });
});
