// Reading an account's security events (docs/decisions/048-security-events.md): newest first, a page at a time,
// for the owner's API and activity page; and their deletion by age (housekeeping).
import { sign, unsign } from "~/auth/core/crypto.server";
import { AuthError } from "~/auth/errors";
import { ORGANIZATION_ACT_TYPES, type SecurityEventDetails } from "~/auth/security-events/types";
import { db } from "~/db.server";
import { env } from "~/env.server";

export const DEFAULT_EVENTS_PAGE = 20;
export const MAX_EVENTS_PAGE = 100;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * An event as the API and the page give it: never its session id or actor (those are for operators). An event an
 * administrator made (its actor someone else) says so, without the admin's client address and browser: those
 * stay in the admin console (issue 38).
 */
export interface SecurityEventView {
  id: string;
  type: string;
  createdAt: Date;
  ipAddress: string | null;
  userAgent: string | null;
  device: string | null;
  byAdministrator: boolean;
  details: SecurityEventDetails;
}

export interface SecurityEventPage {
  events: SecurityEventView[];
  nextCursor: string | null;
}

/**
 * The cursor names the last event of a page (its time and id) and is signed for the account it was given to,
 * so a cursor that was edited, or belongs to somebody else, is refused instead of paging through another list.
 */
const cursorPurpose = (userId: string) => `security-events:${userId}`;

function makeCursor(userId: string, last: { createdAt: Date; id: string }): string {
  return sign(Buffer.from(JSON.stringify([last.createdAt.getTime(), last.id])).toString("base64url"), cursorPurpose(userId));
}

function readCursor(userId: string, cursor: string): { createdAt: Date; id: string } {
  const value = cursor.length <= 512 ? unsign(cursor, cursorPurpose(userId)) : null;
  if (!value) throw new AuthError("INVALID_CURSOR");
  try {
    const [at, id] = JSON.parse(Buffer.from(value, "base64url").toString("utf8")) as unknown[];
    if (typeof at === "number" && Number.isFinite(at) && typeof id === "string") return { createdAt: new Date(at), id };
  } catch {
    // falls through to the refusal
  }
  throw new AuthError("INVALID_CURSOR");
}

/** `limit` as typed in a query string: a whole number from 1 to 100, 20 when absent. */
export function parseLimit(raw: string | undefined): number {
  if (raw === undefined || raw === "") return DEFAULT_EVENTS_PAGE;
  if (!/^\d{1,3}$/.test(raw)) throw new AuthError("INVALID_LIMIT");
  const limit = Number(raw);
  if (limit < 1 || limit > MAX_EVENTS_PAGE) throw new AuthError("INVALID_LIMIT");
  return limit;
}

/** The oldest moment still shown: events older than the retention are on their way out. */
function retentionStart(now = Date.now()): Date {
  return new Date(now - env.AUTH_SECURITY_EVENT_DAYS * DAY_MS);
}

/** One page of the account's events, newest first; `nextCursor` is null on the last page. */
export async function listSecurityEvents(userId: string, options: { limit?: number; cursor?: string | null } = {}): Promise<SecurityEventPage> {
  const limit = options.limit ?? DEFAULT_EVENTS_PAGE;
  const after = options.cursor ? readCursor(userId, options.cursor) : null;
  const rows = await db.securityEvent.findMany({
    where: {
      userId,
      createdAt: { gte: retentionStart() },
      ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  return {
    events: page.map((row) => ownersView(userId, row)),
    nextCursor: more ? makeCursor(userId, page[page.length - 1]) : null,
  };
}

type StoredRow = Omit<SecurityEventView, "byAdministrator" | "details"> & { actorUserId: string | null; details: string };

function ownersView(userId: string, row: StoredRow): SecurityEventView {
  const byAdministrator = row.actorUserId !== null && row.actorUserId !== userId && !ORGANIZATION_ACT_TYPES.has(row.type);
  return {
    id: row.id,
    type: row.type,
    createdAt: row.createdAt,
    ipAddress: byAdministrator ? null : row.ipAddress,
    userAgent: byAdministrator ? null : row.userAgent,
    device: byAdministrator ? null : row.device,
    byAdministrator,
    details: parseEventDetails(row.details),
  };
}

/** One of the account's own events still shown ("Not you?" names the sign-in it came from), or null. */
export async function findOwnSecurityEvent(userId: string, id: string): Promise<SecurityEventView | null> {
  if (id.length > 64) return null;
  const row = await db.securityEvent.findFirst({ where: { id, userId, createdAt: { gte: retentionStart() } } });
  return row ? ownersView(userId, row) : null;
}

/** A stored event's details (JSON text written by recordSecurityEvent), for every reader of the table. */
export function parseEventDetails(stored: string): SecurityEventDetails {
  try {
    const details: unknown = JSON.parse(stored);
    return details && typeof details === "object" && !Array.isArray(details) ? (details as SecurityEventDetails) : {};
  } catch {
    return {};
  }
}

/** The id of the account's latest "This wasn't me", or null (trusted devices before it no longer count). */
export async function lastEndedByOwner(userId: string): Promise<string | null> {
  const found = await db.securityEvent.findFirst({
    where: { userId, type: "sessions_ended_by_owner" },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { id: true },
  });
  return found?.id ?? null;
}

/** Housekeeping: events older than AUTH_SECURITY_EVENT_DAYS. */
export async function deleteOldSecurityEvents(now = Date.now()): Promise<void> {
  await db.securityEvent.deleteMany({ where: { createdAt: { lt: retentionStart(now) } } });
}

/**
 * Where a page of an account's events sits, for "Events 21–40 of 52" and a "Newer" link (issue 41): the events
 * in the retention window, how many come up to and with the cursor's event (the rows before the page), and the
 * cursor of the page before this one (null when that is the first page, which needs none). A cursor that does
 * not read is refused as by `listSecurityEvents`.
 */
export async function securityEventsPosition(
  userId: string,
  cursor: string | null,
  limit = DEFAULT_EVENTS_PAGE,
): Promise<{ total: number; before: number; newerCursor: string | null }> {
  const since = { userId, createdAt: { gte: retentionStart() } };
  const at = cursor ? readCursor(userId, cursor) : null;
  const total = await db.securityEvent.count({ where: since });
  if (!at) return { total, before: 0, newerCursor: null };
  const upToCursor = { ...since, OR: [{ createdAt: { gt: at.createdAt } }, { createdAt: at.createdAt, id: { gte: at.id } }] };
  const before = await db.securityEvent.count({ where: upToCursor });
  if (before <= limit) return { total, before, newerCursor: null };
  // Counted oldest first from the cursor's event, the one `limit` rows newer ends the page before this one's.
  const end = await db.securityEvent.findFirst({ where: upToCursor, orderBy: [{ createdAt: "asc" }, { id: "asc" }], skip: limit, select: { createdAt: true, id: true } });
  return { total, before, newerCursor: end ? makeCursor(userId, end) : null };
}
