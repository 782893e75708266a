// Steps the console's browser specs share: an account made through the JSON API (signed out again), and an
// operator's admin grant written straight into the worker's database, as `npm run admin -- grant` makes it.
import Database from "better-sqlite3";
import type { APIRequestContext } from "@playwright/test";
import { expect, PASSWORD, uniqueEmail, type TestUser } from "./fixtures";

export function makeAdmin(databaseFile: string, email: string) {
  const db = new Database(databaseFile);
  try {
    db.prepare(`UPDATE "user" SET "role" = 'admin' WHERE "email" = ?`).run(email);
  } finally {
    db.close();
  }
}

export async function newAccount(request: APIRequestContext, baseURL: string, name: string): Promise<TestUser> {
  const user = { name, email: uniqueEmail(name.split(" ")[0].toLowerCase()), password: PASSWORD };
  const signUp = await request.post("/api/auth/sign-up/email", { data: user, headers: { Origin: baseURL } });
  expect(signUp.status(), await signUp.text()).toBe(200);
  await request.post("/api/auth/sign-out", { headers: { Origin: baseURL } });
  return user;
}
