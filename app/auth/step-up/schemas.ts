// Field rules of the /reverify API and the "Confirm it's you" page (issue 39 §4).
import { z } from "zod";
import { codeField } from "~/auth/two-factor/schemas";

export const reverifyPasswordBody = z.object({ password: z.string().max(1024) });
export const reverifyCodeBody = z.object({ code: z.string().max(64) });
/** The browser's assertion: the same shape as a passkey sign-in's. */
export { verifyAuthenticationBody as reverifyPasskeyBody } from "~/auth/passkey/schemas";

/** The page's forms; `redirectTo` is judged by the page (same site only). */
export const reverifyPasswordForm = z.object({
  password: z.string({ error: "Enter your password." }).min(1, "Enter your password.").max(1024),
});
export const reverifyCodeForm = z.object({ code: codeField });
export const reverifySendForm = z.object({});
