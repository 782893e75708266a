// What an admin does to accounts (issue 30), for the admin API (app/routes/api.auth.admin.*) and the console
// (/admin) alike: each function checks the admin's permission, makes the change and records the security event
// of the account it touched in the same transaction, with the admin as the actor (ADR 048, 049).
import { AuthError } from "~/auth/errors";
import { authorize, authorizeAct } from "~/auth/admin/authorize.server";
import { DEFAULT_ROLE, isAdminRole, KNOWN_ROLES } from "~/auth/admin/permissions";
import {
  DEFAULT_PAGE_SIZE,
  FILTERABLE_FIELDS,
  MAX_PAGE_SIZE,
  SORTABLE_FIELDS,
  updatableUserData,
  type ListUsersQuery,
} from "~/auth/admin/schemas";
import { normalizeEmail } from "~/auth/core/email-address";
import { localeField } from "~/i18n/locale-field.server";
import { CREDENTIAL_PROVIDER, assertPasswordLength, hashPassword } from "~/auth/account/password.server";
import { assertPasswordNotCompromised } from "~/auth/password-policy/check.server";
import { mailResetLinkTo } from "~/auth/account/password-flows.server";
import { siteName } from "~/auth/security-events/notify-admin-acts.server";
import { afterResponse } from "~/background-work.server";
import { adminNotices } from "~/email/admin-notices.server";
import { DELETION_ENDS } from "~/auth/account/delete-account.server";
import { settleOrganizationsOfDeletedUser } from "~/auth/organization/access.server";
import type { RequestContext } from "~/auth/request-context.server";
import type { SecurityEventDetails } from "~/auth/security-events/types";
import { revokeWaysIn } from "~/auth/account/revocation.server";
import { recordSecurityEvent } from "~/auth/security-events/record.server";
import type { SessionWithUser } from "~/auth/session/sessions.server";
import { db, databaseKind, isUniqueViolation, Prisma, type User } from "~/db.server";

type Admin = SessionWithUser;

export async function findUserOrThrow(id: string): Promise<User> {
  const user = await db.user.findUnique({ where: { id } });
  if (!user) throw new AuthError("USER_NOT_FOUND");
  return user;
}

/** A role as Better Auth takes it (a name or a list) as stored: known names only, comma-joined. */
export function parseRoleInput(role: unknown): string {
  const list = Array.isArray(role) ? role : [role];
  if (list.length === 0) throw new AuthError("INVALID_ROLE_TYPE");
  for (const name of list) {
    if (typeof name !== "string") throw new AuthError("INVALID_ROLE_TYPE");
    // Better Auth refuses unknown roles once roles are configured; this server's roles are fixed (ADR 049).
    if (!KNOWN_ROLES.includes(name.trim())) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE");
  }
  return [...new Set(list.map((name: string) => name.trim()))].join(",");
}

/** An admin may not take away their own admin role: the last way back into the console could go with it. */
function refuseSelfDemotion(admin: Admin, userId: string, role: string) {
  if (userId === admin.user.id && !isAdminRole(role)) throw new AuthError("YOU_CANNOT_DEMOTE_YOURSELF");
}

// ── list-users ────────────────────────────────────────────────────────────────────────────────────────────────

const SEARCH_OPERATORS = { contains: "contains", starts_with: "startsWith", ends_with: "endsWith" } as const;
const BOOLEAN_FIELDS = new Set(["banned", "emailVerified"]);

/** A filter's value as the field's type: booleans from "true"/"false" (a query string has no other kind). */
function typedValue(field: string, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => typedValue(field, v));
  if (BOOLEAN_FIELDS.has(field)) {
    if (value === true || value === "true") return true;
    if (value === false || value === "false") return false;
    return undefined;
  }
  return String(value);
}

/** Better Auth's where-operators as a Prisma condition on one field; undefined when they cannot apply. */
function condition(field: string, operator: string, raw: unknown): Prisma.UserWhereInput | undefined {
  const value = typedValue(field, raw);
  if (value === undefined || (Array.isArray(value) && value.some((v) => v === undefined))) return undefined;
  const text = typeof value === "string" ? (field === "email" ? value.toLowerCase() : value) : value;
  const insensitive = databaseKind === "postgres" && field !== "email" && typeof text === "string" ? { mode: "insensitive" as const } : {};
  const list = Array.isArray(text) ? text : [text];
  switch (operator) {
    case "eq":
      return { [field]: Array.isArray(text) ? { in: text } : text };
    case "ne":
      return { [field]: { not: text } };
    case "in":
      return { [field]: { in: list } };
    case "not_in":
      return { [field]: { notIn: list } };
    case "lt":
    case "lte":
    case "gt":
    case "gte":
      return typeof text === "string" ? { [field]: { [operator]: text } } : undefined;
    case "contains":
    case "starts_with":
    case "ends_with":
      return typeof text === "string" && !BOOLEAN_FIELDS.has(field) ? { [field]: { [SEARCH_OPERATORS[operator]]: text, ...insensitive } } : undefined;
    default:
      return undefined;
  }
}

const isOneOf = <T extends string>(list: readonly T[], value: string | undefined): value is T => value !== undefined && (list as readonly string[]).includes(value);

export interface UserPage {
  users: User[];
  /** How many users match; with `countUpTo`, at most that many (then `totalIsExact` is false). */
  total: number;
  totalIsExact: boolean;
}

/**
 * GET /admin/list-users and the console's list: a search, a filter, a sort (newest first unless asked) and a
 * page. An unknown field answers an empty page, as Better Auth's does (its adapter throws and it answers
 * `{users: [], total: 0}`). Without `limit` a page holds DEFAULT_PAGE_SIZE users, never the whole table.
 */
export async function listUsers(admin: Admin, query: ListUsersQuery, options: { countUpTo?: number } = {}): Promise<UserPage> {
  authorize(admin, { user: ["list"] }, "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS");
  const none: UserPage = { users: [], total: 0, totalIsExact: true };
  const where: Prisma.UserWhereInput[] = [];
  if (query.searchValue) {
    const search = condition(query.searchField ?? "email", query.searchOperator ?? "contains", query.searchValue);
    if (!search) return none;
    where.push(search);
  }
  if (query.filterValue !== undefined) {
    const field = query.filterField ?? "email";
    const filter = isOneOf(FILTERABLE_FIELDS, field) ? condition(field, query.filterOperator ?? "eq", query.filterValue) : undefined;
    if (!filter) return none;
    where.push(filter);
  }
  const sortBy = query.sortBy ?? "createdAt";
  if (!isOneOf(SORTABLE_FIELDS, sortBy)) return none;
  const direction = query.sortDirection ?? (query.sortBy ? "asc" : "desc");
  const take = Math.min(Number(query.limit) || DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  const skip = Number(query.offset) || 0;
  const filter = where.length ? { AND: where } : {};
  // The API's total is exact, as Better Auth's is (a count of every matching row: with the search indexes, of the
  // matches; unfiltered, of the whole table). The console asks for at most `countUpTo` + 1, which stops early.
  const cap = options.countUpTo;
  const [users, counted] = await Promise.all([
    // The id breaks ties, so pages never overlap nor skip a user created in the same millisecond.
    db.user.findMany({ where: filter, orderBy: [{ [sortBy]: direction }, { id: direction }], take, skip }),
    db.user.count({ where: filter, ...(cap !== undefined ? { take: cap + 1 } : {}) }),
  ]);
  if (cap !== undefined && counted > cap) return { users, total: cap, totalIsExact: false };
  return { users, total: counted, totalIsExact: true };
}

// ── get, create, update ───────────────────────────────────────────────────────────────────────────────────────

export async function getUser(admin: Admin, id: string): Promise<User> {
  authorize(admin, { user: ["get"] }, "YOU_ARE_NOT_ALLOWED_TO_GET_USER");
  return findUserOrThrow(id);
}

export async function createUser(
  ctx: RequestContext,
  admin: Admin,
  input: { email: string; password?: string; name: string; role?: string | string[]; data?: Record<string, unknown> },
): Promise<User> {
  await authorizeAct(ctx, admin, { user: ["create"] }, "YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS", "/admin/create-user");
  const { role: dataRole, ...extra } = input.data ?? {};
  const requested = input.role ?? dataRole;
  let role = DEFAULT_ROLE;
  if (requested !== undefined) {
    authorize(admin, { user: ["set-role"] }, "YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE");
    role = parseRoleInput(requested);
  }
  const email = normalizeEmail(input.email);
  if (input.password) {
    assertPasswordLength(input.password);
    await assertPasswordNotCompromised(input.password); // no account yet: nothing is recorded
  }
  // Only the profile's plain fields come from `data`; anything else in it is not this endpoint's to set.
  const emailVerified = extra.emailVerified === true;
  const image = typeof extra.image === "string" && extra.image.length <= 2048 ? extra.image : null;
  // The account's language, as sign-up takes it (ADR 072): a language on offer or null, anything else refused.
  const locale = localeField.safeParse(extra.locale);
  if (!locale.success) throw new AuthError("VALIDATION_ERROR", { message: locale.error.issues.map((i) => `[body.data.locale] ${i.message}`).join("; ") });
  if (await db.user.findUnique({ where: { email }, select: { id: true } })) throw new AuthError("USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL");
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  try {
    return await db.$transaction(async (tx) => {
      const user = await tx.user.create({ data: { email, name: input.name, role, emailVerified, image, locale: locale.data ?? null } });
      if (passwordHash) await tx.account.create({ data: { userId: user.id, providerId: CREDENTIAL_PROVIDER, accountId: user.id, password: passwordHash } });
      await recordSecurityEvent(tx, { userId: user.id, type: "user_created_by_admin", ctx, actorUserId: admin.user.id, details: { role, credentialAccount: Boolean(passwordHash) } });
      return user;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AuthError("USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL");
    throw error;
  }
}

/** POST /admin/update-user: the profile fields, the role and the ban, each under its own permission. */
export async function updateUser(ctx: RequestContext, admin: Admin, userId: string, data: Record<string, unknown>): Promise<User> {
  await authorizeAct(ctx, admin, { user: ["update"] }, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_USERS", "/admin/update-user");
  if (Object.keys(data).length === 0) throw new AuthError("NO_DATA_TO_UPDATE");
  if (Object.hasOwn(data, "password")) throw new AuthError("PASSWORD_CANNOT_BE_UPDATED_VIA_UPDATE_USER");
  if (Object.hasOwn(data, "id")) throw new AuthError("USER_ID_CANNOT_BE_UPDATED");
  const parsed = updatableUserData.extend({ locale: localeField }).safeParse(data);
  if (!parsed.success) throw new AuthError("VALIDATION_ERROR", { message: parsed.error.issues.map((i) => `[body.data.${i.path.join(".")}] ${i.message}`).join("; ") });
  const fields = parsed.data;
  const changes: Prisma.UserUpdateInput = {};
  if (fields.name !== undefined) changes.name = fields.name;
  if (fields.image !== undefined) changes.image = fields.image || null;
  if (fields.locale !== undefined) changes.locale = fields.locale;
  if (fields.role !== undefined) {
    authorize(admin, { user: ["set-role"] }, "YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE");
    changes.role = parseRoleInput(fields.role);
    refuseSelfDemotion(admin, userId, changes.role);
  }
  const banning = fields.banned !== undefined || fields.banReason !== undefined || fields.banExpires !== undefined;
  if (banning) {
    authorize(admin, { user: ["ban"] }, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS");
    if (fields.banned === true && userId === admin.user.id) throw new AuthError("YOU_CANNOT_BAN_YOURSELF");
    if (fields.banned !== undefined) changes.banned = fields.banned;
    if (fields.banReason !== undefined) changes.banReason = fields.banReason;
    if (fields.banExpires !== undefined) changes.banExpires = fields.banExpires === null ? null : new Date(fields.banExpires);
  }
  if (fields.email !== undefined || fields.emailVerified !== undefined) {
    authorize(admin, { user: ["set-email"] }, "YOU_ARE_NOT_ALLOWED_TO_SET_USERS_EMAIL");
    if (fields.email !== undefined) {
      changes.email = normalizeEmail(fields.email);
      const holder = await db.user.findUnique({ where: { email: changes.email }, select: { id: true } });
      if (holder && holder.id !== userId) throw new AuthError("USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL");
    }
    if (fields.emailVerified !== undefined) changes.emailVerified = fields.emailVerified;
  }
  try {
    return await db.$transaction(async (tx) => {
      const before = await tx.user.findUnique({ where: { id: userId } });
      if (!before) throw new AuthError("USER_NOT_FOUND");
      const user = await tx.user.update({ where: { id: userId }, data: changes });
      const actor = { ctx, actorUserId: admin.user.id, userId };
      const profileFields = Object.keys(changes).filter((key) => !["role", "banned", "banReason", "banExpires"].includes(key));
      // A new address names both, as the owner's own change does (ADR 048): the old one is mailed when it was proven.
      const moved: SecurityEventDetails = user.email !== before.email ? { from: before.email, to: user.email, fromVerified: before.emailVerified } : {};
      if (profileFields.length) await recordSecurityEvent(tx, { ...actor, type: "profile_updated_by_admin", details: { fields: profileFields.join(","), ...moved } });
      if (changes.role !== undefined && changes.role !== before.role) await recordSecurityEvent(tx, { ...actor, type: "role_changed", details: { from: before.role, to: user.role } });
      if (changes.banned === true) {
        // Every ban ends the same ways in, whichever path set it (ADR 055): sessions, sign-ins in flight, and what
        // applications hold (an unban does not bring those back).
        await revokeWaysIn(tx, userId, BAN_ENDS);
        await recordSecurityEvent(tx, { ...actor, type: "user_banned", details: { reason: user.banReason, until: user.banExpires?.toISOString() ?? null } });
      } else if (changes.banned === false && before.banned) {
        await recordSecurityEvent(tx, { ...actor, type: "user_unbanned" });
      }
      return user;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AuthError("USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL");
    throw error;
  }
}

export async function setRole(ctx: RequestContext, admin: Admin, userId: string, roleInput: string | string[]): Promise<User> {
  await authorizeAct(ctx, admin, { user: ["set-role"] }, "YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE", "/admin/set-role");
  const role = parseRoleInput(roleInput);
  refuseSelfDemotion(admin, userId, role);
  return db.$transaction(async (tx) => {
    const before = await tx.user.findUnique({ where: { id: userId }, select: { role: true } });
    if (!before) throw new AuthError("USER_NOT_FOUND");
    const user = await tx.user.update({ where: { id: userId }, data: { role } });
    if (before.role !== role) await recordSecurityEvent(tx, { userId, type: "role_changed", ctx, actorUserId: admin.user.id, details: { from: before.role, to: role } });
    return user;
  });
}

// ── bans ──────────────────────────────────────────────────────────────────────────────────────────────────────

/** What a ban ends, by either path (ban-user, update-user): consents stay, the person's choices (ADR 051). */
const BAN_ENDS = { sessions: "all", applications: "tokens" } as const;

/**
 * POST /admin/ban-user: the ban and the end of every session of the user, in one transaction. The sessions are
 * deleted through the Prisma client, so the change feed tells every instance's session cache (ADR 024): the
 * banned person's next request anywhere is signed out.
 */
export async function banUser(ctx: RequestContext, admin: Admin, input: { userId: string; banReason?: string; banExpiresIn?: number }): Promise<User> {
  await authorizeAct(ctx, admin, { user: ["ban"] }, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS", "/admin/ban-user");
  await findUserOrThrow(input.userId);
  if (input.userId === admin.user.id) throw new AuthError("YOU_CANNOT_BAN_YOURSELF");
  const banReason = input.banReason || "No reason";
  const banExpires = input.banExpiresIn ? new Date(Date.now() + input.banExpiresIn * 1000) : null;
  return db.$transaction(async (tx) => {
    // updateMany: a user deleted meanwhile is a 404, not a crash.
    const { count } = await tx.user.updateMany({ where: { id: input.userId }, data: { banned: true, banReason, banExpires } });
    if (count === 0) throw new AuthError("USER_NOT_FOUND");
    // Applications lose what they hold for the person too: codes, access and refresh tokens (ADR 051, 055).
    await revokeWaysIn(tx, input.userId, BAN_ENDS);
    await recordSecurityEvent(tx, {
      userId: input.userId,
      type: "user_banned",
      ctx,
      actorUserId: admin.user.id,
      details: { reason: banReason, until: banExpires?.toISOString() ?? null },
    });
    return tx.user.findUniqueOrThrow({ where: { id: input.userId } });
  });
}

/** POST /admin/unban-user: the ban's three fields cleared together; nothing else about the account changes. */
export async function unbanUser(ctx: RequestContext, admin: Admin, userId: string): Promise<User> {
  await authorizeAct(ctx, admin, { user: ["ban"] }, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS", "/admin/unban-user");
  return db.$transaction(async (tx) => {
    const { count } = await tx.user.updateMany({ where: { id: userId }, data: { banned: false, banReason: null, banExpires: null } });
    if (count === 0) throw new AuthError("USER_NOT_FOUND");
    await recordSecurityEvent(tx, { userId, type: "user_unbanned", ctx, actorUserId: admin.user.id });
    return tx.user.findUniqueOrThrow({ where: { id: userId } });
  });
}

// ── sessions ──────────────────────────────────────────────────────────────────────────────────────────────────

export async function listUserSessions(admin: Admin, userId: string) {
  authorize(admin, { session: ["list"] }, "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS");
  // A page, as every list is (ADR 044): the 100 most recently used, through the (userId, updatedAt) index.
  return db.session.findMany({ where: { userId, expiresAt: { gt: new Date() } }, orderBy: [{ updatedAt: "desc" }, { id: "desc" }], take: DEFAULT_PAGE_SIZE });
}

/** One session, named by its token (the API) or its id (the console, whose pages never show a token). */
export async function revokeUserSession(ctx: RequestContext, admin: Admin, which: { token: string } | { id: string; userId: string }): Promise<void> {
  await authorizeAct(ctx, admin, { session: ["revoke"] }, "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS", "/admin/revoke-user-session");
  const where = "token" in which ? { token: which.token } : { id: which.id, userId: which.userId };
  await db.$transaction(async (tx) => {
    const session = await tx.session.findFirst({ where, select: { id: true, userId: true } });
    if (!session) return; // already gone: the outcome asked for
    await tx.session.deleteMany({ where: { id: session.id } });
    await recordSecurityEvent(tx, { userId: session.userId, type: "session_revoked", ctx, sessionId: session.id, actorUserId: admin.user.id });
  });
}

export async function revokeUserSessions(ctx: RequestContext, admin: Admin, userId: string): Promise<void> {
  await authorizeAct(ctx, admin, { session: ["revoke"] }, "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS", "/admin/revoke-user-sessions");
  await db.$transaction(async (tx) => {
    const { sessions } = await revokeWaysIn(tx, userId, { sessions: "all" });
    if (sessions > 0) await recordSecurityEvent(tx, { userId, type: "session_revoked", ctx, actorUserId: admin.user.id, details: { sessions } });
  });
}

// ── remove, password ──────────────────────────────────────────────────────────────────────────────────────────

/** POST /admin/remove-user: the account and everything that cannot outlive it (as the owner's own deletion). */
export async function removeUser(ctx: RequestContext, admin: Admin, userId: string): Promise<void> {
  await authorizeAct(ctx, admin, { user: ["delete"] }, "YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS", "/admin/remove-user");
  if (userId === admin.user.id) throw new AuthError("YOU_CANNOT_REMOVE_YOURSELF");
  await findUserOrThrow(userId);
  await db.$transaction(async (tx) => {
    await revokeWaysIn(tx, userId, DELETION_ENDS);
    await settleOrganizationsOfDeletedUser(tx, userId);
    await tx.user.deleteMany({ where: { id: userId } });
  });
}

/**
 * POST /admin/set-user-password. Marked as set by someone other than the owner in the same way as a reset by
 * e-mail: it proves nothing the owner alone knows, so the e-mailed second factor is not offered after it (ADR 027).
 */
/**
 * The console's "Send password reset": the same reset link a person can ask for, mailed to the account's address,
 * recorded as `password_reset_sent_by_admin` with the admin as the actor (the owner sees an admin started it).
 */
export async function sendPasswordResetByAdmin(ctx: RequestContext, admin: Admin, userId: string): Promise<User> {
  await authorizeAct(ctx, admin, { user: ["set-password"] }, "YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD", "/admin/send-password-reset");
  const user = await findUserOrThrow(userId);
  await recordSecurityEvent(db, { userId, type: "password_reset_sent_by_admin", ctx, actorUserId: admin.user.id });
  // The link's own mail names who sent it and never says "ignore" (issue 41); after the answer, as a request's.
  afterResponse(() => mailResetLinkTo(user, undefined, {}, (url, ttl) => adminNotices.resetLink(user.email, siteName(), url, ttl)));
  return user;
}

export async function setUserPassword(ctx: RequestContext, admin: Admin, userId: string, newPassword: string): Promise<void> {
  await authorizeAct(ctx, admin, { user: ["set-password"] }, "YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD", "/admin/set-user-password");
  assertPasswordLength(newPassword);
  await findUserOrThrow(userId);
  await assertPasswordNotCompromised(newPassword, { ctx, userId, flow: "admin", actorUserId: admin.user.id });
  const password = await hashPassword(newPassword);
  await db.$transaction(async (tx) => {
    // The old password ends for sign-ins in flight (ADR 055).
    await revokeWaysIn(tx, userId, {});
    const updated = await tx.account.updateMany({ where: { userId, providerId: CREDENTIAL_PROVIDER }, data: { password, passwordResetByEmail: true } });
    if (updated.count === 0) await tx.account.create({ data: { userId, providerId: CREDENTIAL_PROVIDER, accountId: userId, password, passwordResetByEmail: true } });
    await recordSecurityEvent(tx, { userId, type: "password_set", ctx, actorUserId: admin.user.id });
  });
}
