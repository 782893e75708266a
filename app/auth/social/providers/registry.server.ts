// The enabled social providers (docs/decisions/021-social-sign-in.md): every provider the specification allows
// (§3) has one file in this folder declaring what is its own, and the generic OpenID Connect provider is found by
// discovery. A new provider is one file here, a line in BUILT_IN and a line in provider-ids.ts.
import { PROVIDER_NAMES, type SocialProviderId } from "~/auth/social/provider-ids";
import { cleanName } from "~/auth/schemas";
import { AuthError } from "~/auth/errors";
import { env } from "~/env.server";
import { callbackUrl, type ProviderDefinition, type SocialProfile, type SocialProvider } from "~/auth/social/providers/shared.server";
import { apple } from "~/auth/social/providers/apple.server";
import { discord } from "~/auth/social/providers/discord.server";
import { dropbox } from "~/auth/social/providers/dropbox.server";
import { facebook } from "~/auth/social/providers/facebook.server";
import { github } from "~/auth/social/providers/github.server";
import { gitlab } from "~/auth/social/providers/gitlab.server";
import { google } from "~/auth/social/providers/google.server";
import { linkedin } from "~/auth/social/providers/linkedin.server";
import { microsoft } from "~/auth/social/providers/microsoft.server";
import { oidcProvider } from "~/auth/social/providers/oidc.server";
import { reddit } from "~/auth/social/providers/reddit.server";
import { spotify } from "~/auth/social/providers/spotify.server";
import { twitch } from "~/auth/social/providers/twitch.server";
import { twitter } from "~/auth/social/providers/twitter.server";

export type { ProviderTokens, SocialProfile, SocialProvider } from "~/auth/social/providers/shared.server";

/** Each allowed provider's file; the type makes a missing one a compile error. */
export const BUILT_IN: Record<SocialProviderId, ProviderDefinition> = {
  apple,
  discord,
  facebook,
  github,
  microsoft,
  google,
  spotify,
  twitch,
  twitter,
  dropbox,
  linkedin,
  gitlab,
  reddit,
};

/**
 * A provider's profile names become user names, which are shown to others and mailed: what a typed name may not
 * hold (line breaks, control and bidirectional-override characters) becomes a space, and they are bounded.
 */
function withCleanNames(provider: SocialProvider): SocialProvider {
  const clean = (profile: SocialProfile): SocialProfile => ({ ...profile, name: cleanName(profile.name) });
  const verifyIdToken = provider.verifyIdToken;
  return {
    ...provider,
    profile: async (tokens, nonce) => clean(await provider.profile(tokens, nonce)),
    ...(verifyIdToken ? { verifyIdToken: async (token: string, nonce?: string) => clean(await verifyIdToken(token, nonce)) } : {}),
  };
}

const registry = new Map<string, SocialProvider>();
for (const config of env.social.providers) {
  const provider = { id: config.id, name: PROVIDER_NAMES[config.id], ...BUILT_IN[config.id](config, callbackUrl(config.id)) };
  registry.set(config.id, withCleanNames(provider));
}
if (env.social.oidc) registry.set(env.social.oidc.id, withCleanNames(oidcProvider(env.social.oidc)));

export function findProvider(id: string): SocialProvider | null {
  return registry.get(id) ?? null;
}

/** Enabled providers, for the pages' buttons and the account's "Linked accounts". */
export function enabledProviders(): Array<{ id: string; name: string }> {
  return [...registry.values()].map(({ id, name }) => ({ id, name }));
}

export function providerFor(id: SocialProviderId | string): SocialProvider {
  const provider = findProvider(id);
  if (!provider) throw new AuthError("PROVIDER_NOT_FOUND");
  return provider;
}
