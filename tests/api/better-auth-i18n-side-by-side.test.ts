// Issue 44: with AUTH_TRANSLATE_API_ERRORS=on, a client reads the same from Latchkey as from Better Auth 1.7 with
// @better-auth/i18n 1.7.5 installed: for the same request, the same status and code, the message in the request's
// language and originalMessage in English, for the codes both servers have. Better Auth runs in this process
// (its in-memory adapter); Latchkey is the real server over HTTP. Hebrew is ours alone (Better Auth ships none).
import { i18n, locales } from "@better-auth/i18n";
import { betterAuth } from "better-auth";
import { memoryAdapter } from "better-auth/adapters/memory";
import { beforeAll, describe, expect, it } from "vitest";
import { SHIPPED_CATALOGS } from "~/i18n/catalogs.server";
import { ApiClient, PASSWORD, uniqueEmail } from "../support/client";
import { sharedServer, type TestServer } from "../support/server";

const BETTER_AUTH_URL = "http://localhost:3999";
const reference = betterAuth({
  baseURL: BETTER_AUTH_URL,
  secret: "better-auth-side-by-side-secret-0123456789abcdef",
  database: memoryAdapter({ user: [], session: [], account: [], verification: [] }),
  emailAndPassword: { enabled: true },
  rateLimit: { enabled: false },
  telemetry: { enabled: false },
  logger: { disabled: true },
  plugins: [i18n({ translations: locales })],
});

let server: TestServer;
beforeAll(async () => {
  server = await sharedServer({ env: { AUTH_EMAIL_VERIFICATION: "off", AUTH_TRANSLATE_API_ERRORS: "on" } });
});

interface Answer {
  status: number;
  body: { code?: string; message?: string; originalMessage?: string };
}

async function askBetterAuth(path: string, body: unknown, language: string, cookie = ""): Promise<Answer> {
  const response = await reference.handler(
    new Request(`${BETTER_AUTH_URL}/api/auth${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: BETTER_AUTH_URL, "accept-language": language, cookie },
      body: JSON.stringify(body),
    }),
  );
  return { status: response.status, body: await response.json() };
}

async function askLatchkey(client: ApiClient, path: string, body: unknown, language: string): Promise<Answer> {
  const answer = await client.post(`/api/auth${path}`, body, { "accept-language": language });
  return { status: answer.status, body: answer.body };
}

/** Requests both servers refuse the same way: wrong credentials, a malformed address, a wrong current password. */
const REQUESTS: { name: string; path: string; body: () => unknown; signedIn?: boolean }[] = [
  { name: "a wrong password", path: "/sign-in/email", body: () => ({ email: uniqueEmail("nobody"), password: "wrong password" }) },
  { name: "a malformed address", path: "/sign-in/email", body: () => ({ email: "not an address", password: "wrong password" }) },
  { name: "a wrong current password", path: "/change-password", signedIn: true, body: () => ({ currentPassword: "not the password", newPassword: `${PASSWORD}!` }) },
];
const SHARED_LANGUAGES = ["de", "fr", "es", "ar"];

async function signedInBetterAuth(): Promise<string> {
  const response = await reference.handler(
    new Request(`${BETTER_AUTH_URL}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: BETTER_AUTH_URL },
      body: JSON.stringify({ name: "Side", email: uniqueEmail("ba"), password: PASSWORD }),
    }),
  );
  expect(response.status).toBe(200);
  return response.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
}

async function signedInLatchkey(): Promise<ApiClient> {
  const client = new ApiClient(server.baseUrl);
  const signUp = await client.post("/api/auth/sign-up/email", { name: "Side", email: uniqueEmail("lk"), password: PASSWORD });
  expect(signUp.status, signUp.text).toBe(200);
  return client;
}

describe("side by side with Better Auth 1.7 and @better-auth/i18n", () => {
  for (const request of REQUESTS) {
    it(`${request.name}: the same status, code and words in ${SHARED_LANGUAGES.join(", ")}`, async () => {
      const cookie = request.signedIn ? await signedInBetterAuth() : "";
      const client = request.signedIn ? await signedInLatchkey() : new ApiClient(server.baseUrl);
      for (const language of SHARED_LANGUAGES) {
        // Ours saves a language at sign-up, and a signed-in caller's saved language beats the header (the issue):
        // saved as the header says, both servers have the same thing to go by.
        if (request.signedIn) expect((await client.post("/api/auth/update-user", { locale: language })).status).toBe(200);
        const theirs = await askBetterAuth(request.path, request.body(), language, cookie);
        const ours = await askLatchkey(client, request.path, request.body(), language);
        expect({ status: ours.status, code: ours.body.code }, language).toEqual({ status: theirs.status, code: theirs.body.code });
        expect(ours.body.message, `${theirs.body.code} in ${language}`).toBe(theirs.body.message);
        expect(ours.body.originalMessage, language).toBe(theirs.body.originalMessage);
      }
    });
  }

  it("every code both have reads the same in each language both ship", () => {
    for (const language of SHARED_LANGUAGES) {
      const theirs = (locales as unknown as Record<string, Record<string, string>>)[language];
      const both = Object.keys(theirs).filter((code) => Object.hasOwn(SHIPPED_CATALOGS[language], `apiError.${code}`));
      expect(both.length, language).toBeGreaterThan(20);
      for (const code of both) expect(SHIPPED_CATALOGS[language][`apiError.${code}`], `${code} in ${language}`).toBe(theirs[code]);
    }
  });

  it("English, asked for or not, is the same on both, without originalMessage", async () => {
    for (const language of ["en", "en-US,en;q=0.9", ""]) {
      const body = { email: uniqueEmail("nobody"), password: "wrong password" };
      const theirs = await askBetterAuth("/sign-in/email", body, language);
      const ours = await askLatchkey(new ApiClient(server.baseUrl), "/sign-in/email", body, language);
      expect(ours.body, language || "no header").toEqual({ code: theirs.body.code, message: theirs.body.message });
    }
  });
});
