// The pages the "every page in every language" test opens (tests/e2e/every-language/check.ts), a file per area.
import type { APIRequestContext, Page } from "@playwright/test";
import type { TestUser } from "../fixtures";

export interface OpenContext {
  /** Signed in as `user` already, unless the entry says `signedOut`. */
  page: Page;
  user: TestUser;
  /** The browser's own request context: its cookies are the page's. */
  request: APIRequestContext;
  baseURL: string;
  /** This worker's server and its SQLite database (for what no page can set up: an operator's grant). */
  appServer: { baseUrl: string; database: { kind: "sqlite"; url: string; file: string } };
}

export interface PageInEveryLanguage {
  /** The entry's name in the test's title. */
  name: string;
  /** Opened without signing in first (sign-in pages, a mailed link's page). */
  signedOut?: boolean;
  /**
   * Sets up what the page shows (rows in its lists, its forms' fields) and answers its address. Called once, in
   * English; the same address is then opened in each language. It may sign in as someone else.
   */
  open(context: OpenContext): Promise<string>;
  /** A page the server writes whole, without React (spec §2's error page): nothing to hydrate. */
  withoutScripts?: boolean;
  /** The status the page answers when it is not 200 (the not-found page's 404). */
  status?: number;
  /** Text that is rightly the same in every language: user-written names, addresses, codes the entry made. */
  kept?: (string | RegExp)[];
}
