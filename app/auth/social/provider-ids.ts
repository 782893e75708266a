// The social providers the specification allows (§3), their button names, and the configuration each needs.
// Browser-safe: pages import it to draw "Continue with …" buttons.

export const SOCIAL_PROVIDER_IDS = [
  "apple",
  "discord",
  "facebook",
  "github",
  "microsoft",
  "google",
  "spotify",
  "twitch",
  "twitter",
  "dropbox",
  "linkedin",
  "gitlab",
  "reddit",
] as const;

export type SocialProviderId = (typeof SOCIAL_PROVIDER_IDS)[number];

export const PROVIDER_NAMES: Record<SocialProviderId, string> = {
  apple: "Apple",
  discord: "Discord",
  facebook: "Facebook",
  github: "GitHub",
  microsoft: "Microsoft",
  google: "Google",
  spotify: "Spotify",
  twitch: "Twitch",
  twitter: "X (Twitter)",
  dropbox: "Dropbox",
  linkedin: "LinkedIn",
  gitlab: "GitLab",
  reddit: "Reddit",
};

/** What a page needs to draw a provider's button. */
export interface ProviderButton {
  id: string;
  name: string;
}
