// The environment, parsed and validated once when the server starts. Everything else imports `env` and never
// reads process.env itself, so an invalid value stops start-up with a message naming the variable.
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { z } from "zod";
import { parseSocialSettings, type SocialSettings } from "~/auth/social/env";
import { loadCatalogs, type Catalogs } from "~/i18n/catalogs.server";
import { LANGUAGE_TAG } from "~/i18n/languages";
import { SSO_SETTINGS } from "~/auth/sso/env";

const DAY_SECONDS = 24 * 60 * 60;
const MAX_COOKIE_AGE_SECONDS = 400 * DAY_SECONDS; // browsers cap cookies at 400 days (spec §9: 34560000 s)
const COOKIE_CACHE_FALLBACK_SECONDS = 60; // spec §9: session cookie cache fallback max age

const seconds = (fallback: number) => z.coerce.number().int().min(1).default(fallback);
const onOff = (fallback: "on" | "off") => z.enum(["on", "off"]).default(fallback);

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    HOST: z.string().default("0.0.0.0"),
    /** Defaults to http://localhost:$PORT. */
    BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    DATABASE_URL: z
      .string()
      .regex(/^(file:|postgres:\/\/|postgresql:\/\/)/, "must start with file:, postgres:// or postgresql://")
      .optional(),
    TRUSTED_ORIGINS: z.string().default(""),
    /** "false"; a number of proxy hops to trust (1: the nearest proxy's X-Forwarded-For entry); "true": all. */
    TRUST_PROXY: z
      .string()
      .regex(/^(true|false|[0-9]{1,2})$/, "must be true, false or a number of proxy hops")
      .default("false"),
    REDIS_URL: z.string().regex(/^rediss?:\/\//, "must start with redis:// or rediss://").optional(),
    AUTH_RATE_LIMIT: onOff("on"),
    /**
     * Where rate-limit counters live (ADR 024 and 025). Unset: Redis when REDIS_URL is set; on PostgreSQL,
     * memory while no other instance is on the database and the database otherwise; SQLite cluster workers, the
     * database; one SQLite process, memory. `database` forces the table (e.g. behind a transaction-pooling
     * PgBouncer, where instances cannot see each other).
     */
    AUTH_RATE_LIMIT_STORE: z.enum(["memory", "database", "redis"]).optional(),
    /** The in-process session cache, invalidated on every instance by every write (ADR 024). */
    AUTH_SESSION_CACHE: onOff("on"),
    /** Sessions the cache holds at most (least recently used leave first). */
    AUTH_SESSION_CACHE_SIZE: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
    PASSWORD_MIN_LENGTH: z.coerce.number().int().min(1).max(1024).default(8),
    PASSWORD_MAX_LENGTH: z.coerce.number().int().min(1).max(1024).default(128),
    /**
     * Breached and common passwords refused when set (docs/decisions/056-breached-passwords.md): the offline list,
     * and the range lookup when AUTH_PASSWORD_RANGE_URL is set. "off" for a deployment whose applications enforce
     * their own password policy (the list is then never read).
     */
    AUTH_PASSWORD_BLOCKLIST: onOff("on"),
    /** Optional k-anonymity range lookup (HIBP-compatible); the first 5 hex characters of the SHA-1 are appended. */
    AUTH_PASSWORD_RANGE_URL: z
      .url({ protocol: /^https?$/ })
      .refine((v) => v.endsWith("/") || v.endsWith("="), "must end with / or = (the 5 characters of the hash are appended)")
      .optional(),
    AUTH_SESSION_EXPIRES_IN: seconds(7 * DAY_SECONDS).refine((v) => v <= MAX_COOKIE_AGE_SECONDS, "at most 400 days"),
    AUTH_SESSION_UPDATE_AGE: seconds(DAY_SECONDS),
    /** A session younger than this may delete the account without the password; 0 turns the check off. */
    AUTH_SESSION_FRESH_AGE: z.coerce.number().int().min(0).default(DAY_SECONDS),
    /** Seconds a signed copy of the session may be trusted without the database; 0 turns the cache off. */
    /** "on" uses the specification's fallback of 60 seconds; "off" (or 0) is the default. */
    AUTH_COOKIE_CACHE_MAX_AGE: z
      .preprocess(
        (value) => (value === "on" ? COOKIE_CACHE_FALLBACK_SECONDS : value === "off" ? 0 : value),
        z.coerce.number().int().min(0).max(MAX_COOKIE_AGE_SECONDS),
      )
      .default(0),
    // E-mail
    SMTP_URL: z.string().regex(/^smtps?:\/\//, "must start with smtp:// or smtps://").optional(),
    MAIL_FROM: z.string().min(3).default("Latchkey <no-reply@localhost>"),
    AUTH_EMAIL_VERIFICATION: z.enum(["optional", "required", "off"]).default("optional"),
    AUTH_EMAIL_VERIFICATION_TTL: seconds(60 * 60),
    AUTH_AUTO_SIGN_IN_AFTER_VERIFICATION: onOff("on"),
    AUTH_RESET_TOKEN_TTL: seconds(60 * 60),
    AUTH_REVOKE_SESSIONS_ON_PASSWORD_RESET: onOff("on"),
    AUTH_CHANGE_EMAIL: onOff("on"),
    AUTH_DELETE_ACCOUNT: z.enum(["on", "email", "off"]).default("on"),
    AUTH_DELETE_TOKEN_TTL: seconds(24 * 60 * 60),
    /** Messages one address may receive per hour (verification, reset, notices); 0 turns the cap off. */
    AUTH_MAIL_PER_RECIPIENT_PER_HOUR: z.coerce.number().int().min(0).max(10_000).default(10),
    // Organizations (docs/decisions/015-organizations.md)
    AUTH_ORGANIZATION_CREATION: onOff("on"),
    /** Organizations one user may belong to before creating another is refused; 0 means no limit. */
    AUTH_ORGANIZATION_LIMIT: z.coerce.number().int().min(0).default(0),
    AUTH_ORGANIZATION_MEMBERSHIP_LIMIT: z.coerce.number().int().min(1).default(100),
    AUTH_ORGANIZATION_CREATOR_ROLE: z.enum(["owner", "admin", "member"]).default("owner"),
    // Teams inside organizations (issue 42, docs/decisions/068-teams.md)
    /** "off": the team routes answer 404 and `teamId` is refused. */
    AUTH_TEAMS: onOff("on"),
    /** "on": creating an organization also makes a team named after it, with the creator in it and active. */
    AUTH_TEAMS_DEFAULT_TEAM: onOff("off"),
    /** Teams one organization may have; 0 means no limit. */
    AUTH_TEAM_LIMIT: z.coerce.number().int().min(0).default(100),
    /** Members one team may have; 0 means only the organization's own limit. */
    AUTH_TEAM_MEMBER_LIMIT: z.coerce.number().int().min(0).default(0),
    // An organization's own roles (issue 42, docs/decisions/069-custom-roles.md)
    /** "off": the role routes answer 404, and only the built-in roles exist. */
    AUTH_CUSTOM_ROLES: onOff("on"),
    /** Custom roles one organization may have (Better Auth's maximumRolesPerOrganization). */
    AUTH_ORGANIZATION_ROLE_LIMIT: z.coerce.number().int().min(1).max(10_000).default(20),
    /** Milliseconds, as the specification counts them (§9: 172800000, two days). */
    AUTH_INVITATION_EXPIRES_IN: z.coerce.number().int().min(1000).max(MAX_COOKIE_AGE_SECONDS * 1000).default(172_800_000),
    AUTH_INVITATION_REQUIRE_VERIFIED_EMAIL: onOff("on"),
    // Passkeys (WebAuthn): the relying party. The RP ID must be BASE_URL's host or a registrable suffix of it.
    AUTH_PASSKEY_RP_ID: z
      .string()
      .regex(/^(?=.{1,253}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/, "must be a host name such as example.com")
      .optional(),
    AUTH_PASSKEY_RP_NAME: z.string().trim().min(1).max(64).default("Latchkey"),
    // Administration (docs/decisions/049-administration.md)
    /**
     * Addresses whose accounts are made admins once the address is verified (at that verification or sign-in,
     * and at start-up for accounts already verified). Comma-separated, compared lowercased.
     */
    AUTH_ADMIN_EMAILS: z
      .string()
      .default("")
      .transform((value) => value.split(",").map((address) => address.trim().toLowerCase()).filter(Boolean)),
    /** How long an admin's session as another user lasts (Better Auth's impersonationSessionDuration). */
    AUTH_IMPERSONATION_SECONDS: seconds(60 * 60).refine((v) => v <= DAY_SECONDS, "at most one day (86400)"),
    /** E-mail one-time codes: "off" stops a code sign-in from creating an account for an unknown address. */
    AUTH_EMAIL_OTP_SIGN_UP: onOff("on"),
    // Security events (docs/decisions/048-security-events.md)
    /**
     * Days a security event is kept; housekeeping deletes older ones. At least 30: "This wasn't me" keeps
     * 30-day trusted-device cookies minted before it from matching by its event (trusted-device.server.ts).
     */
    AUTH_SECURITY_EVENT_DAYS: z.coerce.number().int().min(30).max(3650).default(180),
    /** "stdout": each security event is also written to standard output as one JSON line, after it commits. */
    AUTH_EVENT_LOG: z.enum(["off", "stdout"]).default("off"),
    /** "off": no mail for a sign-in from a new device (the other security mails always go). */
    AUTH_NEW_DEVICE_MAIL: onOff("on"),
    /**
     * "on": a right password from a browser the account has not signed in from (no two-factor, verified address)
     * answers Better Auth's two-factor redirect and mails a code to confirm it (issue 39 §3, ADR 058).
     */
    AUTH_NEW_DEVICE_VERIFICATION: onOff("off"),
    // Account lockout by device (issue 39 §1, docs/decisions/057-account-lockout-by-device.md)
    /** "off": wrong passwords are limited only per client address. */
    AUTH_LOCKOUT: onOff("on"),
    /** Wrong passwords one bucket (an account's new devices, or one known device) may have in a window. */
    AUTH_LOCKOUT_MAX_FAILURES: z.coerce.number().int().min(1).max(10_000).default(10),
    /** The window, fixed from its first failure, in seconds (at least 10). */
    AUTH_LOCKOUT_WINDOW_SECONDS: z.coerce.number().int().min(10).max(DAY_SECONDS).default(60 * 60),
    // Proof of work under a burst (issue 39 §5, docs/decisions/060-proof-of-work-under-a-burst.md)
    /** "on": during a burst, sign-in, sign-up and reset requests from devices the account does not know need a solved ALTCHA challenge. */
    AUTH_POW: onOff("off"),
    /** PBKDF2 iterations of each try; a challenge takes 1000–3000 tries (about a second in a browser at 1000). */
    AUTH_POW_COST: z.coerce.number().int().min(1).max(100_000).default(1000),
    // Enterprise single sign-on (issue 43, docs/decisions/070-sso-connections.md)
    ...SSO_SETTINGS,
    // Metrics and logs (issue 40, docs/decisions/062-metrics-and-request-logs.md)
    /** The metrics listener's port; unset, nothing is measured anywhere. Never PORT: the public port serves none. */
    METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    /** Where the metrics listener binds; defaults to HOST. */
    METRICS_HOST: z.string().trim().min(1).optional(),
    METRICS_PATH: z
      .string()
      .regex(/^\/[A-Za-z0-9._~\/-]*$/, "must be a path such as /metrics")
      .default("/metrics"),
    /** A scrape must send `Authorization: Bearer <METRICS_TOKEN>` when set. */
    METRICS_TOKEN: z
      .string()
      .min(16, "must be at least 16 characters")
      .regex(/^[\x21-\x7e]+$/, "must be printable characters without spaces")
      .optional(),
    // Languages (issue 44, docs/languages.md, docs/decisions/072-languages.md)
    /** The languages on offer, comma-separated (default: every shipped one and any AUTH_MESSAGES_DIR adds). */
    AUTH_LANGUAGES: z
      .string()
      .transform((value) => value.split(",").map((tag) => tag.trim()).filter(Boolean))
      .refine((tags) => tags.length > 0, "must name at least one language")
      .refine((tags) => tags.every((tag) => LANGUAGE_TAG.test(tag)), "must be language tags such as en,de,fr")
      .optional(),
    /** The language of anyone whose browser asks for none on offer, and of mail to an address with no account. */
    AUTH_DEFAULT_LANGUAGE: z.string().regex(LANGUAGE_TAG, "must be a language tag such as en").default("en"),
    /** A folder of <lang>.json files: any keys of a shipped language replace its messages; a complete file adds a language. */
    AUTH_MESSAGES_DIR: z.string().trim().min(1).optional(),
    /** "on": API error messages in the request's language, with `originalMessage` in English (as @better-auth/i18n). */
    AUTH_TRANSLATE_API_ERRORS: onOff("off"),
    LOG_FORMAT: z.enum(["json", "text"]).default("json"),
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
    /**
     * Test suites only (ADR 032): "fast" hashes new passwords with a cheap scrypt cost, marked as such, so tests
     * whose subject is not the hash do not pay ~145 ms of CPU per password. Refused unless BASE_URL is loopback.
     */
    AUTH_TEST_PASSWORD_HASHING: z.enum(["production", "fast"]).default("production"),
    /**
     * Test suites only: every client-address rate-limit window (app/auth/rate-limit/limits.server.ts) lasts this
     * many times as long, so a test that fills a window with requests is never outrun by a slow machine (the
     * limits themselves are unchanged). Refused unless BASE_URL is loopback.
     */
    AUTH_TEST_RATE_LIMIT_WINDOW_FACTOR: z.coerce.number().int().min(1).max(1000).default(1),
  })
  .refine((v) => v.PASSWORD_MIN_LENGTH <= v.PASSWORD_MAX_LENGTH, {
    path: ["PASSWORD_MIN_LENGTH"],
    message: "must not exceed PASSWORD_MAX_LENGTH",
  })
  .refine((v) => v.METRICS_PORT === undefined || v.METRICS_PORT !== v.PORT, {
    path: ["METRICS_PORT"],
    message: "must differ from PORT: the public port never serves metrics",
  })
  .refine((v) => v.AUTH_RATE_LIMIT_STORE !== "redis" || v.REDIS_URL, {
    path: ["AUTH_RATE_LIMIT_STORE"],
    message: "redis needs REDIS_URL",
  })
  .refine((v) => v.AUTH_PASSWORD_BLOCKLIST === "on" || !v.AUTH_PASSWORD_RANGE_URL, {
    path: ["AUTH_PASSWORD_RANGE_URL"],
    message: "is set, but AUTH_PASSWORD_BLOCKLIST=off turns the breached-password check off",
  });

export type Env = Omit<z.infer<typeof schema>, "BASE_URL" | "AUTH_PASSKEY_RP_ID"> & {
  social: SocialSettings;
  /** The catalogs on offer, checked at start-up (app/i18n/catalogs.server.ts). */
  i18n: Catalogs;
  BASE_URL: string;
  AUTH_PASSKEY_RP_ID: string;
  AUTH_SECRET: string;
  baseOrigin: string;
  secureCookies: boolean;
  /** No SMTP server and a localhost BASE_URL: mail goes to the log and the /dev/outbox page. */
  localOutbox: boolean;
};

class ConfigurationError extends Error {
  override name = "ConfigurationError";
}

function isLocalhost(url: string) {
  const host = new URL(url).hostname;
  return host === "localhost" || host === "127.0.0.1" || host === "[::1]" || host.endsWith(".localhost");
}

/** A URL only this machine can reach: a test server's. */
function isLoopback(url: string) {
  const host = new URL(url).hostname;
  return host === "localhost" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Without AUTH_SECRET a local start keeps a generated secret in data/; anywhere else that would be unsafe. */
function developmentSecret(baseUrl: string, databaseUrl: string | undefined): string {
  if (!isLocalhost(baseUrl)) {
    throw new ConfigurationError(
      `AUTH_SECRET is not set. It is required when BASE_URL (${baseUrl}) is not a localhost URL: ` +
        `set it to a random value of at least 32 characters, e.g. \`openssl rand -base64 32\`.`,
    );
  }
  // Beside the SQLite file (it belongs to that data), or in data/ for a PostgreSQL database.
  const directory = databaseUrl?.startsWith("file:")
    ? path.dirname(path.resolve(process.cwd(), databaseUrl.slice("file:".length).split("?")[0]))
    : path.join(process.cwd(), "data");
  const file = path.join(directory, "auth-secret");
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  // Written whole under a temporary name, then linked into place: link() never replaces a file, so of two
  // processes starting together one places its secret and both read that complete file.
  const draft = `${file}.${process.pid}.${randomBytes(6).toString("hex")}`;
  writeFileSync(draft, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
  try {
    linkSync(draft, file);
  } catch (error) {
    // Already there: kept from an earlier start, or placed a moment ago by a second process.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    rmSync(draft, { force: true });
  }
  const secret = readFileSync(file, "utf8").trim();
  if (secret.length < 32) {
    throw new ConfigurationError(
      `The development secret in ${file} is shorter than 32 characters (${secret.length}); ` +
        "delete the file to have a new one generated, or set AUTH_SECRET.",
    );
  }
  console.warn(`[latchkey] AUTH_SECRET is not set; using the development secret kept in ${file}.`);
  return secret;
}

export function parseEnv(source: NodeJS.ProcessEnv): Env {
  const result = schema.safeParse(Object.fromEntries(Object.entries(source).filter(([, v]) => v !== "")));
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigurationError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const social = parseSocialSettings(source);
  if (social.problems.length) throw new ConfigurationError(`Invalid configuration:\n${social.problems.join("\n")}`);
  const parsed = { ...result.data, BASE_URL: result.data.BASE_URL ?? `http://localhost:${result.data.PORT}` };
  const baseUrl = new URL(parsed.BASE_URL);
  if (parsed.AUTH_TEST_PASSWORD_HASHING === "fast" && !isLoopback(parsed.BASE_URL)) {
    throw new ConfigurationError(
      "Invalid configuration:\n  AUTH_TEST_PASSWORD_HASHING: fast is for test suites on this machine only (BASE_URL must be " +
        "a localhost or loopback URL); never set it in a deployment",
    );
  }
  if (parsed.AUTH_TEST_RATE_LIMIT_WINDOW_FACTOR !== 1 && !isLoopback(parsed.BASE_URL)) {
    throw new ConfigurationError(
      "Invalid configuration:\n  AUTH_TEST_RATE_LIMIT_WINDOW_FACTOR: is for test suites on this machine only (BASE_URL must be " +
        "a localhost or loopback URL); never set it in a deployment",
    );
  }
  const rpId = parsed.AUTH_PASSKEY_RP_ID ?? baseUrl.hostname;
  // A browser refuses an RP ID that is neither the page's host nor a suffix of it: fail now, not at the first passkey.
  if (baseUrl.hostname !== rpId && !baseUrl.hostname.endsWith(`.${rpId}`)) {
    throw new ConfigurationError(
      `Invalid configuration:\n  AUTH_PASSKEY_RP_ID: must be BASE_URL's host (${baseUrl.hostname}) or a domain it belongs to`,
    );
  }
  const i18n = loadCatalogs({ languages: parsed.AUTH_LANGUAGES, defaultLanguage: parsed.AUTH_DEFAULT_LANGUAGE, messagesDir: parsed.AUTH_MESSAGES_DIR });
  return {
    ...parsed,
    i18n,
    AUTH_PASSKEY_RP_ID: rpId,
    AUTH_SECRET: parsed.AUTH_SECRET ?? developmentSecret(parsed.BASE_URL, parsed.DATABASE_URL),
    social: social.settings,
    baseOrigin: baseUrl.origin,
    secureCookies: baseUrl.protocol === "https:",
    localOutbox: !parsed.SMTP_URL && isLocalhost(parsed.BASE_URL),
  };
}

function warnAboutRiskySettings(config: Env): void {
  if (config.AUTH_TEST_PASSWORD_HASHING === "fast") {
    console.warn("[latchkey] AUTH_TEST_PASSWORD_HASHING=fast: passwords are hashed at a test-only cost (test suites only).");
  }
  if (config.AUTH_TEST_RATE_LIMIT_WINDOW_FACTOR !== 1) {
    console.warn(
      `[latchkey] AUTH_TEST_RATE_LIMIT_WINDOW_FACTOR=${config.AUTH_TEST_RATE_LIMIT_WINDOW_FACTOR}: rate-limit windows are that many times as long (test suites only).`,
    );
  }
  if (!config.SMTP_URL && !isLocalhost(config.BASE_URL)) {
    console.warn(
      "[latchkey] SMTP_URL is not set: verification and password-reset links are written to the server log " +
        "instead of being emailed. Set SMTP_URL for a real deployment.",
    );
  }
}

export const env: Env = parseEnv(process.env);
warnAboutRiskySettings(env);
