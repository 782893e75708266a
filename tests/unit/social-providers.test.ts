// Each of the thirteen providers: the authorization URL the server builds (host, client id, redirect, scopes,
// state, PKCE where the provider supports it), and a recorded user-info answer mapped to a profile. And the
// layout: one file per provider, none over 80 lines, each in the registry.
import { createHash, generateKeyPairSync } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { SOCIAL_PROVIDER_IDS } from "~/auth/social/provider-ids";

let providers: typeof import("~/auth/social/providers/registry.server");
let shared: typeof import("~/auth/social/providers/shared.server");
let mappers: Awaited<ReturnType<typeof loadMappers>>;

async function loadMappers() {
  return {
    oidcClaims: (await import("~/auth/social/providers/shared.server")).profileFromClaims,
    github: (await import("~/auth/social/providers/github.server")).githubProfile,
    discord: (await import("~/auth/social/providers/discord.server")).discordProfile,
    facebook: (await import("~/auth/social/providers/facebook.server")).facebookProfile,
    spotify: (await import("~/auth/social/providers/spotify.server")).spotifyProfile,
    twitch: (await import("~/auth/social/providers/twitch.server")).twitchProfile,
    twitter: (await import("~/auth/social/providers/twitter.server")).twitterProfile,
    dropbox: (await import("~/auth/social/providers/dropbox.server")).dropboxProfile,
    gitlab: (await import("~/auth/social/providers/gitlab.server")).gitlabProfile,
    reddit: (await import("~/auth/social/providers/reddit.server")).redditProfile,
  };
}

beforeAll(async () => {
  for (const id of SOCIAL_PROVIDER_IDS) {
    process.env[`${id.toUpperCase()}_CLIENT_ID`] = `${id}-client-id`;
    if (id !== "apple") process.env[`${id.toUpperCase()}_CLIENT_SECRET`] = `${id}-client-secret`;
  }
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  process.env.APPLE_TEAM_ID = "TEAM123456";
  process.env.APPLE_KEY_ID = "KEY1234567";
  process.env.APPLE_PRIVATE_KEY = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  process.env.MICROSOFT_TENANT = "contoso.onmicrosoft.com";
  providers = await import("~/auth/social/providers/registry.server");
  shared = await import("~/auth/social/providers/shared.server");
  mappers = await loadMappers();
});

describe("one file per provider, and a registry", () => {
  const folder = path.join(import.meta.dirname, "..", "..", "app", "auth", "social", "providers");
  const PROVIDER_FILE_MAX_LINES = 80;

  it("every provider the specification allows (§3) has a file and a registry entry", () => {
    const files = readdirSync(folder);
    for (const id of SOCIAL_PROVIDER_IDS) {
      expect(files, id).toContain(`${id}.server.ts`);
      expect(typeof providers.BUILT_IN[id], id).toBe("function");
    }
    expect(Object.keys(providers.BUILT_IN).sort()).toEqual([...SOCIAL_PROVIDER_IDS].sort());
  });

  it(`no provider file is over ${PROVIDER_FILE_MAX_LINES} lines`, () => {
    const notProviders = new Set(["registry.server.ts", "shared.server.ts"]);
    for (const file of readdirSync(folder).filter((name) => !notProviders.has(name))) {
      const lines = readFileSync(path.join(folder, file), "utf8").trimEnd().split("\n").length;
      expect(lines, file).toBeLessThanOrEqual(PROVIDER_FILE_MAX_LINES);
    }
  });
});

const EXPECTED: Record<string, { host: string; path: string; pkce: boolean; scope: string }> = {
  apple: { host: "appleid.apple.com", path: "/auth/authorize", pkce: false, scope: "name email" },
  discord: { host: "discord.com", path: "/oauth2/authorize", pkce: true, scope: "identify email" },
  facebook: { host: "www.facebook.com", path: "/v16.0/dialog/oauth", pkce: false, scope: "email public_profile" },
  github: { host: "github.com", path: "/login/oauth/authorize", pkce: false, scope: "read:user user:email" },
  microsoft: { host: "login.microsoftonline.com", path: "/contoso.onmicrosoft.com/oauth2/v2.0/authorize", pkce: true, scope: "openid profile email User.Read offline_access" },
  google: { host: "accounts.google.com", path: "/o/oauth2/v2/auth", pkce: true, scope: "openid email profile" },
  spotify: { host: "accounts.spotify.com", path: "/authorize", pkce: true, scope: "user-read-email" },
  twitch: { host: "id.twitch.tv", path: "/oauth2/authorize", pkce: false, scope: "user:read:email" },
  twitter: { host: "twitter.com", path: "/i/oauth2/authorize", pkce: true, scope: "users.read tweet.read offline.access users.email" },
  dropbox: { host: "www.dropbox.com", path: "/oauth2/authorize", pkce: false, scope: "account_info.read" },
  linkedin: { host: "www.linkedin.com", path: "/oauth/v2/authorization", pkce: false, scope: "openid profile email" },
  gitlab: { host: "gitlab.com", path: "/oauth/authorize", pkce: false, scope: "read_user" },
  reddit: { host: "www.reddit.com", path: "/api/v1/authorize", pkce: false, scope: "identity" },
};

describe.each(SOCIAL_PROVIDER_IDS)("%s", (id) => {
  it("builds the authorization URL: endpoint, client id, callback, scopes, state and PKCE", async () => {
    const provider = providers.providerFor(id);
    const state = "S".repeat(32);
    const url = await provider.authorizationUrl({ state, codeVerifier: "v".repeat(128), scopes: provider.defaultScopes, nonce: "n0nce" });
    const expected = EXPECTED[id];
    expect(url.protocol).toBe("https:");
    expect(url.host).toBe(expected.host);
    expect(url.pathname).toBe(expected.path);
    expect(url.searchParams.get("client_id")).toBe(`${id}-client-id`);
    expect(url.searchParams.get("redirect_uri")).toBe(`http://localhost:3000/api/auth/callback/${id}`);
    expect(url.searchParams.get("response_type")).toBe("code");
    expect(url.searchParams.get("state")).toBe(state);
    expect(url.searchParams.get("scope")).toBe(expected.scope);
    expect(provider.pkce).toBe(expected.pkce);
    if (expected.pkce) {
      expect(url.searchParams.get("code_challenge_method")).toBe("S256");
      expect(url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    } else {
      expect(url.searchParams.get("code_challenge")).toBeNull();
    }
  });
});

describe("recorded user-info answers become profiles", () => {
  const m = () => mappers;

  it("github: the primary address from /user/emails, with its verified flag", () => {
    expect(
      m().github({ id: 583231, login: "octocat", name: null, email: null, avatar_url: "https://avatars.githubusercontent.com/u/583231?v=4" }, [
        { email: "octo@example.com", primary: true, verified: true },
        { email: "old@example.com", primary: false, verified: false },
      ]),
    ).toEqual({ id: "583231", email: "octo@example.com", emailVerified: true, name: "octocat", image: "https://avatars.githubusercontent.com/u/583231?v=4" });
  });

  it("google, microsoft, linkedin, apple and OIDC providers: the standard claims", () => {
    expect(m().oidcClaims({ sub: "1098", email: "ada@example.com", email_verified: true, name: "Ada Lovelace", picture: "https://lh3.googleusercontent.com/a" })).toEqual({
      id: "1098",
      email: "ada@example.com",
      emailVerified: true,
      name: "Ada Lovelace",
      image: "https://lh3.googleusercontent.com/a",
    });
    // Apple sends "true" as a string, and no name after the first sign-in.
    expect(m().oidcClaims({ sub: "001.abc", email: "x@privaterelay.appleid.com", email_verified: "true" })).toMatchObject({ emailVerified: true, name: "" });
    expect(m().oidcClaims({ sub: "s", given_name: "Grace", family_name: "Hopper" }).name).toBe("Grace Hopper");
  });

  it("discord: verified flag and CDN avatar", () => {
    expect(m().discord({ id: "80351110224678912", username: "nelly", global_name: "Nelly", email: "nelly@example.com", verified: true, avatar: "8342729096ea3675442027381ff50dfe" })).toEqual({
      id: "80351110224678912",
      email: "nelly@example.com",
      emailVerified: true,
      name: "Nelly",
      image: "https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png",
    });
  });

  it("facebook, spotify and twitch: addresses they do not vouch for stay unverified", () => {
    expect(m().facebook({ id: "10", name: "Mark", email: "m@example.com", picture: { data: { url: "https://platform-lookaside.fbsbx.com/p" } } })).toEqual({
      id: "10",
      email: "m@example.com",
      emailVerified: false,
      name: "Mark",
      image: "https://platform-lookaside.fbsbx.com/p",
    });
    expect(m().spotify({ id: "wizzler", display_name: "JM Wizzler", email: "w@example.com", images: [{ url: "https://i.scdn.co/image/x" }] })).toMatchObject({
      id: "wizzler",
      emailVerified: false,
      image: "https://i.scdn.co/image/x",
    });
    expect(m().twitch({ data: [{ id: "141981764", login: "twitchdev", display_name: "TwitchDev", email: "t@example.com", profile_image_url: "https://static-cdn.jtvnw.net/x.png" }] })).toEqual({
      id: "141981764",
      email: "t@example.com",
      emailVerified: false,
      name: "TwitchDev",
      image: "https://static-cdn.jtvnw.net/x.png",
    });
  });

  it("twitter, dropbox, gitlab and reddit", () => {
    expect(m().twitter({ data: { id: "2244994945", name: "X Dev", username: "XDevelopers", profile_image_url: "https://pbs.twimg.com/p.jpg", confirmed_email: "x@example.com" } })).toEqual({
      id: "2244994945",
      email: "x@example.com",
      emailVerified: true,
      name: "X Dev",
      image: "https://pbs.twimg.com/p.jpg",
    });
    expect(m().dropbox({ account_id: "dbid:AAH4f99", name: { display_name: "Franz Ferdinand" }, email: "franz@example.com", email_verified: true, profile_photo_url: "https://dl-web.dropbox.com/p" })).toEqual({
      id: "dbid:AAH4f99",
      email: "franz@example.com",
      emailVerified: true,
      name: "Franz Ferdinand",
      image: "https://dl-web.dropbox.com/p",
    });
    expect(m().gitlab({ id: 1, username: "john_smith", name: "John Smith", email: "john@example.com", avatar_url: "https://gitlab.com/a.png", confirmed_at: "2012-05-23T09:05:22Z" })).toEqual({
      id: "1",
      email: "john@example.com",
      emailVerified: true,
      name: "John Smith",
      image: "https://gitlab.com/a.png",
    });
    expect(m().reddit({ id: "abc12", name: "spez", icon_img: "https://styles.redditmedia.com/i.png?width=256&s=x" })).toEqual({
      id: "abc12",
      email: null,
      emailVerified: false,
      name: "spez",
      image: "https://styles.redditmedia.com/i.png",
    });
  });
});

describe("ID-token nonces (issue 24, item 7)", () => {
  const fakeJwt = (claims: Record<string, unknown>) =>
    [{ alg: "RS256" }, claims].map((part) => Buffer.from(JSON.stringify(part)).toString("base64url")).join(".") + ".c2ln";
  const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");

  it("a token's nonce must be the request's; Apple's may also be its SHA-256 (hex), as native apps send it", () => {
    const { nonceMatches } = shared;
    expect(nonceMatches(undefined, undefined)).toBe(true);
    expect(nonceMatches("raw", "raw")).toBe(true);
    expect(nonceMatches("raw", undefined)).toBe(false); // the token carries one, the request none
    expect(nonceMatches(undefined, "raw")).toBe(false); // the request brings one, the token none
    expect(nonceMatches("other", "raw")).toBe(false);
    expect(nonceMatches(sha256("raw"), "raw")).toBe(false);
    expect(nonceMatches(sha256("raw"), "raw", { hashed: true })).toBe(true);
    expect(nonceMatches("raw", "raw", { hashed: true })).toBe(true);
    expect(nonceMatches(sha256("other"), "raw", { hashed: true })).toBe(false);
  });

  it("Apple's redirect-path ID token must carry the nonce the sign-in sent, for this client", async () => {
    const apple = providers.providerFor("apple");
    const claims = { iss: "https://appleid.apple.com", aud: "apple-client-id", sub: "001.apple", email: "a@example.com", email_verified: "true" };
    const tokens = (extra: Record<string, unknown>) => ({ accessToken: null, refreshToken: null, accessTokenExpiresAt: null, scopes: [], idToken: fakeJwt({ ...claims, ...extra }) });
    await expect(apple.profile(tokens({ nonce: "flow-nonce" }), "flow-nonce")).resolves.toMatchObject({ id: "001.apple", email: "a@example.com" });
    for (const [extra, nonce] of [[{}, "flow-nonce"], [{ nonce: "other" }, "flow-nonce"], [{ nonce: "flow-nonce", aud: "another-app" }, "flow-nonce"], [{ nonce: "flow-nonce" }, null]] as const) {
      await expect(apple.profile(tokens(extra), nonce)).rejects.toMatchObject({ code: "INVALID_TOKEN" });
    }
  });
});
