// Request bodies of the /sso routes and the connection page's forms (Better Auth 1.7.5's `@better-auth/sso` shapes;
// docs/decisions/070-sso-connections.md). Messages are worded for the page; the API answers VALIDATION_ERROR.
import { z } from "zod";
import { optionalUrl } from "~/auth/schemas";
import { idField, slugField } from "~/auth/organization/schemas";

/** It becomes the DNS label `_better-auth-token-{providerId}` (at most 63 characters) and a URL path segment. */
export const PROVIDER_ID_MAX = 44;
export const providerIdField = z
  .string({ error: "Enter a provider ID." })
  .trim()
  .min(1, "Enter a provider ID.")
  .max(PROVIDER_ID_MAX, `Use at most ${PROVIDER_ID_MAX} characters.`)
  .regex(/^[A-Za-z0-9_-]+$/, "Use letters, digits, - and _ only.");

const DOMAIN_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
/** A host name with at least two labels, lowercased, no trailing dot. */
export function isDomainName(value: string): boolean {
  if (value.length > 253) return false;
  const labels = value.split(".");
  return labels.length >= 2 && labels.every((label) => DOMAIN_LABEL.test(label)) && !/^\d+$/.test(labels.at(-1)!);
}

/** "example.com" or "example.com, example.org" → ["example.com", "example.org"]. */
export function domainList(value: string): string[] {
  return [...new Set(value.split(",").map((part) => part.trim().toLowerCase().replace(/\.$/, "")).filter(Boolean))];
}

export const domainField = z
  .string({ error: "Enter the e-mail domain." })
  .trim()
  .min(1, "Enter the e-mail domain.")
  .max(1000, "Use at most 1000 characters.")
  .refine((value) => {
    const domains = domainList(value);
    return domains.length >= 1 && domains.length <= 20 && domains.every(isDomainName);
  }, "Enter a domain like example.com, or several separated by commas.")
  .transform((value) => domainList(value).join(","));

const httpsOrHttpUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "https:" || url.protocol === "http:") && !url.username && !url.password && !url.hash;
    } catch {
      return false;
    }
  }, "Enter a URL starting with https://.");

export const issuerField = httpsOrHttpUrl.transform((value) => value.replace(/\/+$/, ""));

const mappingSchema = z
  .object({
    id: z.string().max(100).optional(),
    email: z.string().max(100).optional(),
    emailVerified: z.string().max(100).optional(),
    name: z.string().max(100).optional(),
    image: z.string().max(100).optional(),
    extraFields: z.record(z.string().max(100), z.string().max(100)).optional(),
  })
  .optional();

export const oidcConfigSchema = z.object({
  clientId: z.string().trim().min(1).max(500),
  clientSecret: z.string().min(1).max(2000),
  discoveryEndpoint: httpsOrHttpUrl.optional(),
  scopes: z.array(z.string().min(1).max(200)).max(50).optional(),
  pkce: z.boolean().optional(),
  tokenEndpointAuthentication: z.enum(["client_secret_basic", "client_secret_post"]).optional(),
  mapping: mappingSchema,
  skipDiscovery: z.boolean().optional(),
  authorizationEndpoint: httpsOrHttpUrl.optional(),
  tokenEndpoint: httpsOrHttpUrl.optional(),
  jwksEndpoint: httpsOrHttpUrl.optional(),
  userInfoEndpoint: httpsOrHttpUrl.optional(),
});
export type OidcConfigInput = z.infer<typeof oidcConfigSchema>;

/** A SAML connection (Better Auth's `samlConfig`); `idpMetadata` names the IdP by entity ID or by its metadata XML. */
export const samlConfigSchema = z.object({
  entryPoint: httpsOrHttpUrl,
  cert: z.union([z.string().min(1).max(20_000), z.array(z.string().min(1).max(20_000)).min(1).max(5)]),
  idpMetadata: z
    .object({ entityID: z.string().trim().min(1).max(1024).optional(), metadata: z.string().max(200_000).optional() })
    .refine((value) => value.entityID || value.metadata, "idpMetadata needs entityID or metadata"),
  wantAssertionsSigned: z.boolean().optional(),
  mapping: z
    .object({ id: z.string().max(200).optional(), email: z.string().max(200).optional(), name: z.string().max(200).optional(), firstName: z.string().max(200).optional(), lastName: z.string().max(200).optional() })
    .optional(),
  audience: z.string().max(1024).optional(),
  identifierFormat: z.string().max(200).optional(),
});
export type SamlConfigInput = z.infer<typeof samlConfigSchema>;

export const registerBody = z.object({
  providerId: providerIdField,
  issuer: issuerField,
  domain: domainField,
  // Required here (Better Auth also has personal providers); its own message, not a validation list.
  organizationId: idField.optional(),
  oidcConfig: oidcConfigSchema.optional(),
  samlConfig: samlConfigSchema.optional(),
  overrideUserInfo: z.boolean().optional(),
});
export type RegisterInput = z.infer<typeof registerBody>;

export const providerIdBody = z.object({ providerId: providerIdField });
export const providerIdQuery = z.object({ providerId: z.string().min(1).max(200) });

export const signInBody = z.object({
  email: z.string().trim().max(254).optional(),
  domain: z.string().trim().max(253).optional(),
  organizationSlug: slugField.optional(),
  providerId: z.string().trim().max(200).optional(),
  issuer: z.string().max(2048).optional(),
  callbackURL: optionalUrl,
  errorCallbackURL: optionalUrl,
  newUserCallbackURL: optionalUrl,
  providerType: z.enum(["oidc", "saml"]).optional(),
  loginHint: z.string().max(254).optional(),
  scopes: z.array(z.string().min(1).max(200)).max(50).optional(),
  requestSignUp: z.boolean().optional(),
});
export type SignInInput = z.infer<typeof signInBody>;

/** The connection page's "Add an OIDC connection" form. */
export const addOidcForm = z.object({
  providerId: providerIdField,
  domain: domainField,
  issuer: z.string({ error: "Enter the issuer URL." }).pipe(issuerField),
  clientId: z.string({ error: "Enter the client ID." }).trim().min(1, "Enter the client ID.").max(500, "Use at most 500 characters."),
  clientSecret: z.string({ error: "Enter the client secret." }).min(1, "Enter the client secret.").max(2000, "Use at most 2000 characters."),
});

/** POST /sso/update-provider: any of the registration's fields; `oidcConfig` partly (a new secret alone, say). */
export const updateBody = z.object({
  providerId: providerIdField,
  issuer: issuerField.optional(),
  domain: domainField.optional(),
  oidcConfig: oidcConfigSchema.partial().optional(),
  samlConfig: z.record(z.string(), z.unknown()).optional(),
});
export type UpdateInput = z.infer<typeof updateBody>;

/** The connection page's "Add a SAML connection" form (our SP entity ID is made from BASE_URL and the id). */
export const addSamlForm = z.object({
  providerId: providerIdField,
  domain: domainField,
  idpEntityId: z.string({ error: "Enter the IdP's entity ID." }).trim().min(1, "Enter the IdP's entity ID.").max(1024, "Use at most 1024 characters."),
  entryPoint: z.string({ error: "Enter the IdP's SSO URL." }).pipe(httpsOrHttpUrl),
  cert: z
    .string({ error: "Paste the IdP's signing certificate." })
    .trim()
    .min(1, "Paste the IdP's signing certificate.")
    .max(20_000, "Use at most 20000 characters."),
});
