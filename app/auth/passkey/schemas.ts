// Request bodies of the passkey API. The authenticator's answers are checked for shape here (strings of bounded
// length where WebAuthn has base64url); whether they are genuine is @simplewebauthn/server's job.
import { z } from "zod";
import { normalizeTypedCode } from "~/auth/core/typed-code";
import { emailField, nameField } from "~/auth/schemas";

export const passkeyNameField = z.string().trim().max(100);

const base64url = (max: number) => z.string().min(1).max(max).regex(/^[A-Za-z0-9_-]*={0,2}$/, "Expected base64url");

const common = {
  id: base64url(1366),
  rawId: base64url(1366),
  type: z.literal("public-key"),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
};

export const registrationResponseSchema = z.object({
  ...common,
  response: z.object({
    clientDataJSON: base64url(4096),
    attestationObject: base64url(32768),
    authenticatorData: base64url(32768).optional(),
    transports: z.array(z.string().max(32)).max(16).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url(8192).optional(),
  }),
});

export const authenticationResponseSchema = z.object({
  ...common,
  response: z.object({
    clientDataJSON: base64url(4096),
    authenticatorData: base64url(32768),
    signature: base64url(4096),
    userHandle: base64url(1024).optional(),
  }),
});

export const registerOptionsQuery = z.object({
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  name: passkeyNameField.optional(),
});

export const verifyRegistrationBody = z.object({ response: registrationResponseSchema, name: passkeyNameField.optional() });
export const authenticateOptionsBody = z.object({ email: z.string().max(254).optional() }).optional().default({});
export const verifyAuthenticationBody = z.object({ response: authenticationResponseSchema });
export const updatePasskeyBody = z.object({ id: z.string().min(1).max(64), name: passkeyNameField });
export const deletePasskeyBody = z.object({ id: z.string().min(1).max(64) });

/** Passkey sign-up (docs/decisions/017-passkey-sign-up.md). */
/** Six digits, like every other code people are sent (ADR 037). */
export const SIGN_UP_CODE_LENGTH = 6;
export const signUpCodeField = z.string().max(64).transform(normalizeTypedCode).pipe(z.string().length(SIGN_UP_CODE_LENGTH, "Enter the 6-digit code"));
export const sendSignUpCodeBody = z.object({ name: nameField, email: emailField });
export const signUpOptionsBody = z.object({ code: signUpCodeField });
export const verifySignUpBody = z.object({ code: signUpCodeField, response: registrationResponseSchema, name: passkeyNameField.optional() });

/** The account page's forms (they work without JavaScript). */
export const renamePasskeyForm = z.object({ id: z.string().min(1).max(64), name: z.string({ error: "Name is required" }).trim().min(1, "Name is required").max(100) });
export const deletePasskeyForm = z.object({ id: z.string().min(1).max(64) });
