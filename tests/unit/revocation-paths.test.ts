// Issue 38's rule, "when one instance of a bug class is fixed, find the rest" (ADR 055): every place that ends a
// way into an account — sessions, passwords, passkeys, links, devices, outstanding tokens, what applications hold,
// a ban, the account itself — goes through the one revocation, `revokeWaysIn` (app/auth/account/revocation.server.ts),
// which also moves the credentials version that every session start compares under the user row's lock.
//
// This test reads app/ for the writes that end a way in. Each one must sit in the revocation module, in a function
// listed below as a revocation path (and that function must call `revokeWaysIn`), or in a function listed as not a
// revocation, with the reason. A new write of this kind anywhere else fails here until someone decides which it
// is: a revocation path routed through the one function, or an exception argued in the list.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.join(import.meta.dirname, "..", "..");
const REVOCATION_MODULE = "app/auth/account/revocation.server.ts";

/** Writes that end a way in (a `select:` or `where:` that only reads the field is not one). */
const ENDING_WRITES: Array<{ what: string; pattern: RegExp }> = [
  { what: "sessions", pattern: /\bsession\.deleteMany\(|DELETE FROM "session"/ },
  { what: "passkeys", pattern: /\bpasskey\.deleteMany\(|DELETE FROM "passkey"/ },
  { what: "passwords and linked accounts", pattern: /\baccount\.deleteMany\(|DELETE FROM "account"/ },
  { what: "a password replaced", pattern: /(?<!select: \{ )\bpasswordResetByEmail: (true|false)/ },
  { what: "the two-factor setup", pattern: /\btwoFactor\.deleteMany\(/ },
  { what: "known devices", pattern: /\bknownDevice\.deleteMany\(/ },
  { what: "outstanding tokens of a user", pattern: /"userId":\$\{/ },
  { what: "what applications hold", pattern: /\boidcModel\.deleteMany\(|\boidcConsent\.deleteMany\(|\bendProviderAccessOf\(/ },
  { what: "a ban", pattern: /\bdata: \{ banned: true\b|\bchanges\.banned\s*=(?!=)/ },
  { what: "the account", pattern: /\buser\.delete(Many)?\(|DELETE FROM "user"/ },
];

/** Functions that revoke: each calls `revokeWaysIn` (file → function names). */
const REVOCATION_PATHS: Record<string, string[]> = {
  "app/auth/account/claim.server.ts": ["endEverything"],
  "app/auth/account/password-flows.server.ts": ["replacePassword", "changePassword", "setPassword"],
  "app/auth/account/delete-account.server.ts": ["deleteUserNow"],
  "app/auth/admin/users.server.ts": ["updateUser", "banUser", "revokeUserSessions", "removeUser", "setUserPassword"],
  "app/auth/passkey/passkeys.server.ts": ["deletePasskey"],
  "app/auth/social/accounts.server.ts": ["unlinkAccount"],
  "app/auth/security-events/end-all-sessions.server.ts": ["endAllSessions"],
  "app/auth/session/own-sessions.server.ts": ["endSessions"],
};

/** Writes of the kinds above that end no credential, and why (file → function → reason). */
const NOT_REVOCATIONS: Record<string, Record<string, string>> = {
  "app/auth/session/sessions.server.ts": {
    startSession: "this browser's previous session, replaced by the one starting",
    lookUpSessionOrEnding: "a session that has expired",
    signOut: "the browser's own session, by its holder",
  },
  "app/auth/housekeeping.server.ts": { deleteExpiredSessions: "sessions that have expired" },
  "app/auth/sign-in/known-device.server.ts": { forgetDevicesUnseenSince: "housekeeping: devices whose cookie has run out" },
  "app/auth/sign-in/credentials.server.ts": { signUpWithEmail: "undoes the account this request created when its verification mail failed: nothing was issued" },
  "app/auth/admin/users.server.ts": { revokeUserSession: "one session an admin picks; no credential ends" },
  "app/auth/admin/impersonation.server.ts": {
    impersonateUser: "an impersonation session that could not be completed",
    stopImpersonating: "the admin's own impersonation session, ended by the admin",
  },
  "app/auth/two-factor/settings.server.ts": { disableTwoFactor: "the second factor turned off with the password: it guards ways in, it is none" },
  "app/auth/verification.server.ts": {
    revokeTokens: "the one token mechanism, one purpose at a time (reset links after a reset or change, whose callers revoke through revokeWaysIn)",
    liveTokenPayloads: "reads a user's pending tokens of one purpose",
    revokeAllTokensOf: "links mailed to an address the account no longer has (a change of address): single-use proofs of that inbox, not credentials",
  },
  "app/auth/oidc-provider/adapter.server.ts": {
    revokeGrant: "one grant, whose code or refresh token was used twice",
    revokeEverythingFor: "one application's access, the owner's \"Revoke access\"",
    endProviderAccessOf: "the primitive revokeWaysIn calls (checked below: nobody else calls it)",
    destroy: "oidc-provider's own storage of one token",
    revokeByGrantId: "oidc-provider's own storage of one grant",
    deleteExpiredProviderRows: "housekeeping",
  },
  "app/auth/oidc-provider/consent.server.ts": { revokeApplication: "one application's consent, the owner's \"Revoke access\"" },
  "app/auth/oidc-provider/clients.server.ts": { removeClient: "an application removed: everybody's access to it" },
};

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sourceFiles(relative);
    return /\.tsx?$/.test(entry.name) ? [relative] : [];
  });
}

/** The function a line belongs to: the nearest declaration above it (a top-level function or a class method). */
function enclosingFunction(lines: string[], index: number): string {
  for (let i = index; i >= 0; i--) {
    const declared = /^(?:export\s+)?(?:async\s+)?function\s+(\w+)/.exec(lines[i]) ?? /^\s+(?:async\s+)?(\w+)\([^)]*\)[^=;]*\{\s*$/.exec(lines[i]);
    if (declared) return declared[1];
  }
  return "(top level)";
}

/** A top-level function's text, from its declaration to the closing brace at the start of a line. */
function functionBody(file: string, name: string): string | null {
  const lines = readFileSync(path.join(ROOT, file), "utf8").split("\n");
  const start = lines.findIndex((line) => new RegExp(`^(?:export\\s+)?(?:async\\s+)?function\\s+${name}\\b`).test(line));
  if (start === -1) return null;
  const end = lines.findIndex((line, i) => i > start && line === "}");
  return lines.slice(start, end + 1).join("\n");
}

interface Found {
  file: string;
  fn: string;
  what: string;
  line: string;
}

function endingWrites(): Found[] {
  return sourceFiles("app").flatMap((file) => {
    const lines = readFileSync(path.join(ROOT, file), "utf8").split("\n");
    return lines.flatMap((line, i) =>
      ENDING_WRITES.filter(({ pattern }) => pattern.test(line) && !/^\s*(\/\/|\*)/.test(line)).map(({ what }) => ({
        file,
        fn: enclosingFunction(lines, i),
        what,
        line: line.trim(),
      })),
    );
  });
}

describe("every write that ends a way in goes through the one revocation (ADR 055)", () => {
  const found = endingWrites();

  it("finds the writes (so the rule has something to hold)", () => {
    expect(found.filter((write) => write.file === REVOCATION_MODULE).map((write) => write.what)).toEqual(
      expect.arrayContaining(["sessions", "passkeys", "passwords and linked accounts", "the two-factor setup", "known devices", "what applications hold"]),
    );
    expect(found.length).toBeGreaterThan(20);
    // Both ban paths and both deletions are seen as what they are.
    const seen = (what: string) => found.filter((write) => write.what === what).map((write) => write.fn);
    expect(seen("a ban")).toEqual(expect.arrayContaining(["updateUser", "banUser"]));
    expect(seen("the account")).toEqual(expect.arrayContaining(["deleteUserNow", "removeUser"]));
  });

  it("each one is in the revocation module, a listed revocation path, or a listed exception with its reason", () => {
    const unexplained = found.filter(
      ({ file, fn }) => file !== REVOCATION_MODULE && !REVOCATION_PATHS[file]?.includes(fn) && !Object.hasOwn(NOT_REVOCATIONS[file] ?? {}, fn),
    );
    expect(unexplained.map(({ file, fn, what, line }) => `${file} ${fn}(): ${what} — ${line}`)).toEqual([]);
  });

  it("each revocation path calls revokeWaysIn", () => {
    for (const [file, names] of Object.entries(REVOCATION_PATHS)) {
      for (const name of names) {
        const body = functionBody(file, name);
        expect(body, `${file} ${name}() exists`).not.toBeNull();
        expect(body, `${file} ${name}() calls revokeWaysIn`).toMatch(/\brevokeWaysIn\(/);
      }
    }
  });

  it("nothing but the revocation module ends a person's provider access wholesale", () => {
    const callers = found.filter(({ line }) => /\bendProviderAccessOf\(/.test(line) && !/^export async function/.test(line)).map(({ file }) => file);
    expect([...new Set(callers)]).toEqual([REVOCATION_MODULE]);
  });

  it("every ban path and every deletion is a listed revocation path", () => {
    const bansAndDeletions = found.filter(({ what, file }) => (what === "a ban" || what === "the account") && file !== REVOCATION_MODULE);
    const unlisted = bansAndDeletions.filter(({ file, fn }) => !REVOCATION_PATHS[file]?.includes(fn) && !(file === "app/auth/sign-in/credentials.server.ts" && fn === "signUpWithEmail"));
    expect(unlisted.map(({ file, fn, line }) => `${file} ${fn}(): ${line}`)).toEqual([]);
  });
});
