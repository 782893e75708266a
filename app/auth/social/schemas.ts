// Request bodies of the social routes, shared by the JSON endpoints that take the same fields.
import { z } from "zod";
import { optionalUrl } from "~/auth/schemas";

export const socialStartBody = z.object({
  provider: z.string().min(1).max(64),
  callbackURL: optionalUrl,
  newUserCallbackURL: optionalUrl,
  errorCallbackURL: optionalUrl,
  disableRedirect: z.boolean().optional(),
  scopes: z.array(z.string().max(200)).max(50).optional(),
  requestSignUp: z.boolean().optional(),
});

export const idTokenBody = z.object({
  token: z.string().min(1).max(16_384),
  nonce: z.string().max(512).optional(),
  accessToken: z.string().max(16_384).optional(),
  refreshToken: z.string().max(16_384).optional(),
  expiresAt: z.number().optional(),
});

/** Which linked account: Better Auth 1.7 names it by providerId (and accountId when a provider has several). */
export const accountSelector = z.object({ providerId: z.string().min(1).max(64), accountId: z.string().max(255).optional() });
