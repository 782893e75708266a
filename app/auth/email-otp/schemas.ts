// Field rules of the e-mail one-time code API and pages.
import { z } from "zod";
import { emailField } from "~/auth/schemas";

export const OTP_TYPES = ["sign-in", "email-verification", "forget-password"] as const;
export type OtpType = (typeof OTP_TYPES)[number];

export const otpField = z.string({ error: "Enter the code from the email." }).trim().min(1, "Enter the code from the email.").max(64);

export const sendOtpBody = z.object({ email: z.string(), type: z.enum(OTP_TYPES) });
export const emailOtpBody = z.object({ email: z.string(), otp: z.string().max(64) });
export const checkOtpBody = z.object({ email: z.string(), type: z.enum(OTP_TYPES), otp: z.string().max(64) });
export const resetWithOtpBody = z.object({ email: z.string(), otp: z.string().max(64), password: z.string() });

/** Pages: "Email me a sign-in code", then the code. */
export const otpEmailFormSchema = z.object({ email: emailField, redirectTo: z.string().optional() });
export const otpCodeFormSchema = z.object({ email: emailField, otp: otpField, redirectTo: z.string().optional() });
