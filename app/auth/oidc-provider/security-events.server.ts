// The hook point for security events of the OpenID provider. The security event log is being built separately;
// until it lands these only note the event. When it exists, record each event here (and only here): every
// caller already goes through this one function.
export type OidcSecurityEvent =
  | { kind: "oidc.consent-given"; userId: string; clientId: string; scopes: string[] }
  | { kind: "oidc.consent-revoked"; userId: string; clientId: string }
  | { kind: "oidc.tokens-issued-to-new-application"; userId: string; clientId: string };

export async function recordOidcSecurityEvent(_event: OidcSecurityEvent): Promise<void> {
  // Intentionally empty: the event log (another issue) plugs in here.
}
