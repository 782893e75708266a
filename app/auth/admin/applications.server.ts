// The console's applications (issue 31: "if the admin console exists, it lists and registers clients too"): the
// OpenID provider's clients, listed, registered and removed with the same functions as `npm run oidc`
// (app/auth/oidc-provider/clients.server.ts), so the rules for a client are written once. Admins only.
import { AuthError } from "~/auth/errors";
import { isAdminRole } from "~/auth/admin/permissions";
import { addClient, ClientRegistrationError, listClients, removeClient, type NewClient } from "~/auth/oidc-provider/clients.server";
import type { RequestContext } from "~/auth/request-context.server";
import type { SessionWithUser } from "~/auth/session/sessions.server";
import { requireRecentVerification } from "~/auth/step-up/guard.server";

function refuseNonAdmin(admin: SessionWithUser): void {
  if (!isAdminRole(admin.user.role)) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_MANAGE_APPLICATIONS");
}

export async function listApplications(admin: SessionWithUser) {
  refuseNonAdmin(admin);
  return listClients();
}

/**
 * Registers a client; the secret (confidential clients) is in the answer and nowhere else, to be shown once. An
 * admin's act: the session must be recently verified (ADR 059), as a trusted application skips every consent.
 */
export async function registerApplication(ctx: RequestContext, admin: SessionWithUser, input: NewClient) {
  refuseNonAdmin(admin);
  await requireRecentVerification(ctx, admin, "/admin/register-application");
  try {
    return await addClient(input);
  } catch (error) {
    if (error instanceof ClientRegistrationError) throw new AuthError("INVALID_CLIENT_REGISTRATION", { message: sentence(error.message) });
    throw error;
  }
}

/** Removes a client and everything issued to it (its people's consents go with it). False if there was none. */
export async function removeApplication(ctx: RequestContext, admin: SessionWithUser, clientId: string): Promise<boolean> {
  refuseNonAdmin(admin);
  await requireRecentVerification(ctx, admin, "/admin/remove-application");
  return removeClient(clientId, { actorUserId: admin.user.id });
}

/** The CLI's reasons, read on a page: a capital first letter and a full stop. */
function sentence(reason: string): string {
  return `${reason.charAt(0).toUpperCase()}${reason.slice(1)}${reason.endsWith(".") ? "" : "."}`;
}
