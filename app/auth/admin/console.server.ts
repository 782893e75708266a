// What the console's user page shows about an account (issue 30): its sign-in methods, organizations and recent
// security events, read here over the tables (the event log's own module is issue 29's; this is a small,
// read-only view of it), put in words by the same sentences as the owner's activity page (words.ts).
import { DEFAULT_PAGE_SIZE, pageAt } from "~/auth/schemas";
import { parseEventDetails } from "~/auth/security-events/events.server";
import { eventSentence } from "~/auth/security-events/sentences";
import { CREDENTIAL_PROVIDER } from "~/auth/account/password.server";
import { db } from "~/db.server";

/** Events a page shows, newest first: enough to see what happened lately; older ones a page further on. */
const EVENTS_PER_PAGE = 25;

/** The account's security events, page `page` (from 1), and where that page sits among them all. */
export async function securityEventsPage(userId: string, page: number) {
  const [events, total] = await Promise.all([
    db.securityEvent.findMany({
      where: { userId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: EVENTS_PER_PAGE,
      skip: (page - 1) * EVENTS_PER_PAGE,
    }),
    db.securityEvent.count({ where: { userId } }),
  ]);
  const actorIds = [...new Set(events.map((e) => e.actorUserId).filter((id): id is string => id !== null && id !== userId))];
  const actors = new Map((await db.user.findMany({ where: { id: { in: actorIds } }, select: { id: true, email: true } })).map((a) => [a.id, a.email]));
  const rows = events.map((event) => ({
    id: event.id,
    sentence: eventSentence(event.type, parseEventDetails(event.details), "admin"),
    at: event.createdAt,
    device: event.device,
    ipAddress: event.ipAddress,
    by:
      event.actorUserId && event.actorUserId !== userId
        ? { email: actors.get(event.actorUserId) ?? "", deleted: !actors.has(event.actorUserId) }
        : null,
  }));
  return { events: rows, at: pageAt(page, EVENTS_PER_PAGE, rows.length, total) };
}

/** How the account can sign in, and where it belongs. */
export async function accountOverview(userId: string) {
  const [accounts, passkeys, twoFactor, memberships] = await Promise.all([
    db.account.findMany({ where: { userId }, select: { providerId: true, password: true } }),
    db.passkey.count({ where: { userId } }),
    db.twoFactor.findUnique({ where: { userId }, select: { id: true } }),
    db.member.findMany({ where: { userId }, select: { role: true, organization: { select: { name: true, slug: true } } }, orderBy: { createdAt: "asc" }, take: DEFAULT_PAGE_SIZE }),
  ]);
  return {
    hasPassword: accounts.some((a) => a.providerId === CREDENTIAL_PROVIDER && a.password !== null),
    providers: accounts.filter((a) => a.providerId !== CREDENTIAL_PROVIDER).map((a) => a.providerId),
    passkeys,
    twoFactorSetUp: twoFactor !== null,
    organizations: memberships.map((m) => ({ name: m.organization.name, slug: m.organization.slug, role: m.role })),
  };
}
