// New devices (docs/decisions/039-known-devices.md). A device is a browser, known by a random id in a signed,
// HttpOnly cookie that lives a year and survives sign-out; the accounts it has signed in to are rows of the
// knownDevice table (the id stored hashed). Not the client address, which changes. The first-factor door marks
// every sign-in with whether it came from a new device; the security-event log and its new-device mail read it.
import { cookieName, readSignedCookie, setSignedCookie } from "~/auth/core/cookies.server";
import { newId, randomToken, sha256Hex } from "~/auth/core/crypto.server";
import type { RequestContext } from "~/auth/request-context.server";
import { db, type Db, type Transaction } from "~/db.server";

export const DEVICE_COOKIE = cookieName("device");
const DEVICE_PURPOSE = "device";
/** A year: long enough to know a browser that signs in now and then, within the browsers' 400-day cap. */
export const DEVICE_COOKIE_SECONDS = 365 * 24 * 60 * 60;

/**
 * This browser's device id, making one (and its cookie) if it has none or its cookie is not ours. Also called
 * where an answer must look like one that remembered a device (a sign-up with a taken address, when verification
 * is required), so the cookies a response sets tell nothing.
 */
export function deviceIdOf(ctx: RequestContext): string {
  const known = readSignedCookie(ctx.request, DEVICE_COOKIE, DEVICE_PURPOSE);
  const id = known && /^[A-Za-z0-9]{32}$/.test(known) ? known : randomToken(32);
  // Sent again on every sign-in, so the year counts from the last one.
  setSignedCookie(ctx, DEVICE_COOKIE, id, DEVICE_PURPOSE, DEVICE_COOKIE_SECONDS);
  return id;
}

/** The stored form of the device id this browser presented, if any; sets no cookie (ADR 057's buckets). */
export function presentedDeviceHash(ctx: Pick<RequestContext, "request">): string | null {
  const known = readSignedCookie(ctx.request, DEVICE_COOKIE, DEVICE_PURPOSE);
  return known && /^[A-Za-z0-9]{32}$/.test(known) ? sha256Hex(known) : null;
}

/** The stored form of this browser's device id (making one, and its cookie, if it has none). */
export function deviceHashOf(ctx: RequestContext): string {
  return sha256Hex(deviceIdOf(ctx));
}

/**
 * Marks a sign-in of `userId` from the device `deviceHash`: true when the browser had not signed in to (or
 * created) this account before, or its cookie was cleared. One statement on every sign-in: an insert that, on a
 * conflict, only moves the row's last sighting (a failed insert would end a PostgreSQL transaction); the id it
 * returns is the one it offered only when it inserted. Two sign-ins at once from one new browser call it new once.
 */
export async function markDevice(tx: Transaction | Db, userId: string, deviceHash: string): Promise<boolean> {
  const now = new Date(Date.now());
  const id = newId();
  const rows = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO "knownDevice" ("id", "userId", "deviceHash", "createdAt", "lastSeenAt")
    VALUES (${id}, ${userId}, ${deviceHash}, ${now}, ${now})
    ON CONFLICT ("userId", "deviceHash") DO UPDATE SET "lastSeenAt" = excluded."lastSeenAt"
    RETURNING "id"`;
  return rows[0]?.id === id;
}

/** `markDevice` for this browser, on its own (outside a sign-in's transaction). */
export async function signInIsFromNewDevice(ctx: RequestContext, userId: string): Promise<boolean> {
  return markDevice(db, userId, deviceHashOf(ctx));
}

/** The browser that creates an account is its first known device: its first sign-in there is not new. */
export async function rememberCreatingDevice(ctx: RequestContext, userId: string): Promise<void> {
  await signInIsFromNewDevice(ctx, userId);
}

/** Devices whose cookie has run out since they were last seen (housekeeping). */
export async function forgetDevicesUnseenSince(before: Date): Promise<void> {
  await db.knownDevice.deleteMany({ where: { lastSeenAt: { lt: before } } });
}
