// Enterprise sign-in settings (docs/decisions/070-sso-connections.md), spread into env.server.ts's one schema, so
// a bad value stops start-up with a message naming the variable like every other setting.
import { z } from "zod";

/** "https://idp.example.com,http://127.0.0.1:8080" → the origins, each checked to be one. */
const originList = z
  .string()
  .default("")
  .transform((value, context) => {
    const origins: string[] = [];
    for (const item of value.split(",").map((part) => part.trim()).filter(Boolean)) {
      try {
        const url = new URL(item);
        if ((url.protocol !== "https:" && url.protocol !== "http:") || url.origin !== item.replace(/\/+$/, "")) throw new Error();
        origins.push(url.origin);
      } catch {
        context.addIssue({ code: "custom", message: `${item} is not an origin such as https://idp.example.com` });
      }
    }
    return origins;
  });

/** "127.0.0.1:5353,[::1]:53,10.0.0.2" → resolver addresses as node:dns takes them. */
const dnsServerList = z
  .string()
  .default("")
  .transform((value, context) => {
    const servers = value.split(",").map((part) => part.trim()).filter(Boolean);
    for (const server of servers) {
      if (!/^(\d{1,3}(\.\d{1,3}){3}(:\d{1,5})?|\[[0-9a-fA-F:.]+\](:\d{1,5})?|[0-9a-fA-F:]+)$/.test(server)) {
        context.addIssue({ code: "custom", message: `${server} is not an IP address with an optional :port` });
      }
    }
    return servers;
  });

export const SSO_SETTINGS = {
  /** Connections one organization may have. */
  SSO_PROVIDERS_LIMIT: z.coerce.number().int().min(1).max(1000).default(10),
  /** IdP origins on loopback or private addresses that may be fetched anyway (an IdP inside the network). */
  SSO_TRUSTED_IDP_ORIGINS: originList,
  /** Resolvers for the domain proof's TXT look-ups; unset: the system's. */
  SSO_DNS_SERVERS: dnsServerList,
  /** The TXT record's label is `_{prefix}-{providerId}`; Better Auth's default, so its records keep working. */
  SSO_DOMAIN_TOKEN_PREFIX: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,16}$/, "must be up to 17 lowercase letters, digits and dashes")
    .default("better-auth-token"),
  /** The role a person joins an organization with at their first sign-in through its connection (never owner). */
  SSO_DEFAULT_ROLE: z.enum(["member", "admin"]).default("member"),
  /** Seconds of clock difference a SAML assertion's time limits allow. */
  SSO_SAML_CLOCK_SKEW: z.coerce.number().int().min(0).max(3600).default(300),
};
