// Registers OpenID provider clients straight in a test database, as `npm run oidc -- add-client` stores them
// (the secret only as its SHA-256), without paying for the CLI's start per client. The CLI itself is tested once
// in tests/api/oidc-provider.test.ts.
import { createHash, randomBytes } from "node:crypto";
import type { TestDatabase } from "./database";
import { query } from "./sql";

export interface RegisteredClient {
  clientId: string;
  clientSecret: string | null;
  redirectUri: string;
  postLogoutRedirectUri: string;
}

export async function registerClient(
  database: Pick<TestDatabase, "kind" | "url">,
  options: { name?: string; public?: boolean; trusted?: boolean; redirectUri?: string; postLogoutRedirectUri?: string } = {},
): Promise<RegisteredClient> {
  const clientId = `client-${randomBytes(8).toString("hex")}`;
  const clientSecret = options.public ? null : randomBytes(32).toString("base64url");
  const redirectUri = options.redirectUri ?? `https://app.example.com/callback/${clientId}`;
  const postLogoutRedirectUri = options.postLogoutRedirectUri ?? "https://app.example.com/signed-out";
  await query(
    database,
    `INSERT INTO "oidcClient" ("id", "name", "secretHash", "redirectUris", "postLogoutRedirectUris", "trusted", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?)`,
    [
      clientId,
      options.name ?? "Team Wiki",
      clientSecret === null ? null : createHash("sha256").update(clientSecret).digest("hex"),
      JSON.stringify([redirectUri]),
      JSON.stringify([postLogoutRedirectUri]),
      database.kind === "sqlite" ? Number(options.trusted === true) : options.trusted === true,
      database.kind === "sqlite" ? Date.now() : new Date(),
    ],
  );
  return { clientId, clientSecret, redirectUri, postLogoutRedirectUri };
}
