// POST /impersonation/stop: the banner's Stop button. Ends the admin's session as the user and puts their own
// back, then shows them the account they were acting as in the console. Nothing to show on a GET.
import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { AuthError } from "~/auth/errors";
import { stopImpersonating } from "~/auth/admin/impersonation.server";
import { noFieldsFormSchema } from "~/auth/admin/schemas";
import { goTo, pageForm } from "~/http/page-action.server";

export const loader = () => redirect("/");

export async function action(args: ActionFunctionArgs) {
  const outcome = await pageForm(args, {
    schema: noFieldsFormSchema,
    rateLimitAs: "/admin/stop-impersonating",
    session: "required",
    run: async (_value, current, ctx) => {
      const actedAs = current.user;
      try {
        await stopImpersonating(ctx, current);
      } catch (error) {
        // Impersonation over, and the admin's own session gone with it: they sign in again.
        if (error instanceof AuthError && error.code === "FAILED_TO_FIND_ADMIN_SESSION") return goTo("/sign-in");
        if (error instanceof AuthError && error.code === "YOU_ARE_NOT_IMPERSONATING_ANYONE") return goTo("/account");
        throw error;
      }
      return goTo(`/admin/users/${encodeURIComponent(actedAs.id)}`, `You stopped acting as ${actedAs.name || actedAs.email}.`);
    },
  });
  // A refusal before any work (rate limit, origin): back where the banner was, which shows it again.
  return redirect("/", { headers: outcome.init.headers });
}
