// Field rules of the two-factor API and pages.
import { z } from "zod";

export const codeField = z.string({ error: "Enter the code." }).trim().min(1, "Enter the code.").max(64);
export const trustDeviceField = z.boolean().optional();
export const twoFactorPasswordField = z.string({ error: "Password is required" }).min(1, "Password is required");

export const enableBody = z.object({ password: z.string(), issuer: z.string().trim().min(1).max(100).optional() });
export const passwordBody = z.object({ password: z.string() });
export const setOtpBody = z.object({ password: z.string(), enabled: z.boolean() });
export const verifyCodeBody = z.object({ code: z.string().max(64), trustDevice: z.boolean().optional() });

/** The /two-factor page: one code (from the app, the e-mail, or a backup code) and "trust this device". */
export const secondFactorFormSchema = z.object({
  code: codeField,
  trustDevice: trustDeviceField,
  redirectTo: z.string().optional(),
});
export const sendOtpFormSchema = z.object({ redirectTo: z.string().optional() });

/** The account page's two-factor forms. */
export const twoFactorPasswordFormSchema = z.object({ password: twoFactorPasswordField });
export const confirmTotpFormSchema = z.object({ code: codeField });
