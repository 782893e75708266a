// Social sign-in settings, read from the environment by env.server.ts (the only reader of process.env). A provider
// is on when its client id is set; an id without the rest of what that provider needs stops start-up with a
// message naming the missing variable.
import { SOCIAL_PROVIDER_IDS, type SocialProviderId } from "~/auth/social/provider-ids";

export interface OAuthProviderConfig {
  id: SocialProviderId;
  clientId: string;
  clientSecret: string;
  /** Apple: the team and key ids and the PKCS#8 private key (PEM) that sign its client secret. */
  apple?: { teamId: string; keyId: string; privateKey: string };
  /** Microsoft: the tenant ("common", "organizations", "consumers" or a tenant id). */
  tenant?: string;
  /** GitLab: the instance (https://gitlab.com unless self-hosted). */
  baseUrl?: string;
}

export interface OidcProviderConfig {
  id: string;
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string[];
}

export interface SocialSettings {
  providers: OAuthProviderConfig[];
  oidc: OidcProviderConfig | null;
  /** Providers whose verified e-mail may link to an existing account whose own e-mail is unverified. */
  trustedProviders: string[];
  /** Link from the account page an identity whose e-mail differs from the user's. */
  allowDifferentEmails: boolean;
}

type Source = Record<string, string | undefined>;

const upper = (id: string) => id.toUpperCase();
const isHttpsUrl = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || (url.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname));
  } catch {
    return false;
  }
};

/** Returns the settings, or the problems (one line each, naming the variable). */
export function parseSocialSettings(source: Source): { settings: SocialSettings; problems: string[] } {
  const problems: string[] = [];
  const need = (name: string, why: string) => {
    const value = source[name];
    if (!value) problems.push(`  ${name}: is required when ${why}`);
    return value ?? "";
  };

  const providers: OAuthProviderConfig[] = [];
  for (const id of SOCIAL_PROVIDER_IDS) {
    const prefix = upper(id);
    const clientId = source[`${prefix}_CLIENT_ID`];
    if (!clientId) {
      for (const extra of ["CLIENT_SECRET", "TEAM_ID", "KEY_ID", "PRIVATE_KEY"]) {
        if (source[`${prefix}_${extra}`]) problems.push(`  ${prefix}_CLIENT_ID: is required when ${prefix}_${extra} is set`);
      }
      continue;
    }
    const why = `${prefix}_CLIENT_ID is set`;
    if (id === "apple") {
      const privateKey = need("APPLE_PRIVATE_KEY", why).replace(/\\n/g, "\n");
      if (privateKey && !privateKey.includes("-----BEGIN PRIVATE KEY-----")) {
        problems.push("  APPLE_PRIVATE_KEY: must be the PKCS#8 key Apple issued (-----BEGIN PRIVATE KEY-----)");
      }
      providers.push({ id, clientId, clientSecret: "", apple: { teamId: need("APPLE_TEAM_ID", why), keyId: need("APPLE_KEY_ID", why), privateKey } });
      continue;
    }
    const config: OAuthProviderConfig = { id, clientId, clientSecret: need(`${prefix}_CLIENT_SECRET`, why) };
    if (id === "microsoft") config.tenant = source.MICROSOFT_TENANT || "common";
    if (id === "gitlab") {
      config.baseUrl = (source.GITLAB_URL || "https://gitlab.com").replace(/\/+$/, "");
      if (!isHttpsUrl(config.baseUrl)) problems.push("  GITLAB_URL: must be an https:// URL");
    }
    providers.push(config);
  }

  let oidc: OidcProviderConfig | null = null;
  const issuer = source.OIDC_ISSUER;
  if (issuer || source.OIDC_CLIENT_ID) {
    const why = issuer ? "OIDC_ISSUER is set" : "OIDC_CLIENT_ID is set";
    const id = source.OIDC_PROVIDER_ID || "oidc";
    if (!/^[a-z0-9][a-z0-9-]{0,31}$/.test(id)) problems.push("  OIDC_PROVIDER_ID: lowercase letters, digits and dashes (at most 32)");
    if ((SOCIAL_PROVIDER_IDS as readonly string[]).includes(id) || id === "credential") {
      problems.push(`  OIDC_PROVIDER_ID: "${id}" is taken by a built-in provider`);
    }
    const issuerValue = need("OIDC_ISSUER", why);
    if (issuerValue && !isHttpsUrl(issuerValue)) problems.push("  OIDC_ISSUER: must be an https:// URL (http:// only on localhost)");
    oidc = {
      id,
      name: source.OIDC_PROVIDER_NAME || "Single sign-on",
      issuer: issuerValue.replace(/\/+$/, ""),
      clientId: need("OIDC_CLIENT_ID", why),
      clientSecret: need("OIDC_CLIENT_SECRET", why),
      scopes: (source.OIDC_SCOPES || "openid email profile").split(/[\s,]+/).filter(Boolean),
    };
    if (!oidc.scopes.includes("openid")) problems.push('  OIDC_SCOPES: must include "openid"');
  }

  const known = new Set<string>([...SOCIAL_PROVIDER_IDS, ...(oidc ? [oidc.id] : [])]);
  const trustedProviders = (source.AUTH_TRUSTED_PROVIDERS ?? "").split(",").map((v) => v.trim()).filter(Boolean);
  for (const id of trustedProviders) {
    if (!known.has(id)) problems.push(`  AUTH_TRUSTED_PROVIDERS: "${id}" is not a provider`);
  }
  const different = source.AUTH_ALLOW_DIFFERENT_EMAILS || "off";
  if (different !== "on" && different !== "off") problems.push("  AUTH_ALLOW_DIFFERENT_EMAILS: must be on or off");

  return { settings: { providers, oidc, trustedProviders, allowDifferentEmails: different === "on" }, problems };
}
