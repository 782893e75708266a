// Enterprise sign-in's entries in the one error catalogue (spread into ERRORS by app/auth/errors.ts), worded as
// Better Auth 1.7's `@better-auth/sso` words them, so its ssoClient() sees the codes it knows. Its domain-proof codes
// and its discovery codes (lower case) are not their messages upper-cased: SSO_CODES_NOT_FROM_MESSAGES lists them
// for the catalogue's test. A discovery failure's message names what went wrong (the document's issuer, the missing
// field); the entry's message is the fallback.
export const SSO_ERRORS = {
  YOU_ARE_NOT_A_MEMBER_OF_THE_ORGANIZATION: [400, "You are not a member of the organization"],
  YOU_MUST_BE_AN_ORGANIZATION_OWNER_OR_ADMIN_TO_REGISTER_SSO_PROVIDERS: [403, "You must be an organization owner or admin to register SSO providers"],
  SSO_PROVIDER_WITH_THIS_PROVIDERID_ALREADY_EXISTS: [422, "SSO provider with this providerId already exists"],
  YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_SSO_PROVIDERS: [403, "You have reached the maximum number of SSO providers"],
  /** Ours: Better Auth allows personal providers; here every connection belongs to an organization. */
  ORGANIZATIONID_IS_REQUIRED: [400, "organizationId is required"],
  YOU_DONT_HAVE_ACCESS_TO_THIS_PROVIDER: [403, "You don't have access to this provider"],
  INSUFICCIENT_ACCESS: [403, "User must be owner of or belong to the SSO provider organization"],
  NO_PROVIDER_FOUND_FOR_THE_ISSUER: [404, "No provider found for the issuer"],
  PROVIDER_DOMAIN_HAS_NOT_BEEN_VERIFIED: [401, "Provider domain has not been verified"],
  EMAIL_DOMAIN_ORGANIZATIONSLUG_OR_PROVIDERID_IS_REQUIRED: [400, "email, domain, organizationSlug or providerId is required"],
  CANNOT_CHANGE_SSO_PROVIDER_IDENTITY_FIELDS_WHILE_LINKED_ACCOUNTS_EXIST: [409, "Cannot change SSO provider identity fields while linked accounts exist"],
  INVALID_SSO_CONFIGURATION: [400, "Invalid SSO configuration"],
  DOMAIN_VERIFIED: [409, "Domain has already been verified"],
  NO_PENDING_VERIFICATION: [404, "No pending domain verification exists"],
  DOMAIN_VERIFICATION_FAILED: [502, "Unable to verify domain ownership. Try again later"],
  /** Ours: the connection page's answer when the record is not there yet (the page itself worked: not a 502). */
  DOMAIN_NOT_VERIFIED_YET: [400, "Domain not verified yet"],
  // Discovery and every other fetch from an IdP: always 400 here (Better Auth answers a timeout with 502).
  issuer_mismatch: [400, "OIDC issuer mismatch"],
  discovery_incomplete: [400, "OIDC discovery document is missing required fields"],
  discovery_private_host: [400, "The IdP's host is a private, loopback or link-local address"],
  discovery_invalid_url: [400, "Invalid OIDC endpoint URL"],
  discovery_not_found: [400, "OIDC discovery endpoint not found"],
  discovery_invalid_json: [400, "OIDC discovery returned invalid data"],
  discovery_timeout: [400, "OIDC discovery timed out"],
  discovery_unexpected_error: [400, "OIDC discovery failed"],
  oidc_endpoint_redirect: [400, "The IdP answered with a redirect, which is not followed"],
  unsupported_token_auth_method: [400, "Incompatible OIDC provider: no supported token endpoint authentication"],
} as const;

export const SSO_CODES_NOT_FROM_MESSAGES = [
  "INSUFICCIENT_ACCESS",
  "DOMAIN_VERIFIED",
  "NO_PENDING_VERIFICATION",
  "DOMAIN_VERIFICATION_FAILED",
  "issuer_mismatch",
  "discovery_incomplete",
  "discovery_private_host",
  "discovery_invalid_url",
  "discovery_not_found",
  "discovery_invalid_json",
  "discovery_timeout",
  "discovery_unexpected_error",
  "oidc_endpoint_redirect",
  "unsupported_token_auth_method",
] as const;
