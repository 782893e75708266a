// Profile changes that need no re-authentication.
import { AuthError } from "~/auth/errors";
import type { RequestContext } from "~/auth/request-context.server";
import { MAX_NAME_LENGTH } from "~/auth/schemas";
import { refreshCookieCache, type SessionWithUser } from "~/auth/session/sessions.server";
import { parseUsername, usernameTaken } from "~/auth/username/username.server";
import { db, isUniqueViolation } from "~/db.server";

export interface ProfileChanges {
  name?: string;
  image?: string | null;
  /** Username plugin: a new username (and optionally how it is displayed). */
  username?: string;
  displayUsername?: string;
  /** A language on offer (checked by the schema), or null to go back to choosing per request. */
  locale?: string | null;
  /** Present only to be refused: e-mail changes go through the verified change-email flow. */
  email?: unknown;
}

export async function updateUser(ctx: RequestContext, current: SessionWithUser, changes: ProfileChanges) {
  if (changes.email !== undefined) throw new AuthError("EMAIL_CAN_NOT_BE_UPDATED");
  const data: { name?: string; image?: string | null; username?: string; displayUsername?: string; locale?: string | null } = {};
  if (changes.username !== undefined) Object.assign(data, parseUsername(changes.username, changes.displayUsername));
  if (changes.name !== undefined) data.name = changes.name.trim().slice(0, MAX_NAME_LENGTH);
  if (changes.image !== undefined) data.image = changes.image || null;
  if (changes.locale !== undefined) data.locale = changes.locale;
  if (Object.keys(data).length === 0) throw new AuthError("NO_FIELDS_TO_UPDATE");
  let user;
  try {
    user = await db.user.update({ where: { id: current.user.id }, data });
  } catch (error) {
    if (isUniqueViolation(error) && data.username) throw usernameTaken();
    throw error;
  }
  refreshCookieCache(ctx, { session: current.session, user });
  return user;
}
