// Issue 44: the English the organization pages' code writes — the shared schemas' field rules, the confirmations
// after each action, the domain's refusals — is found in the catalog's "said.*" messages (app/i18n/said.ts), so the
// pages say it in the reader's language while the JSON API keeps its English.
import { describe, expect, test } from "vitest";
import type { z } from "zod";
import { AuthError, type ErrorName } from "~/auth/errors";
import { createOrganizationForm, inviteForm, memberRoleForm, organizationSettingsForm, roleForm } from "~/auth/organization/schemas";
import { createTeamForm, renameTeamForm } from "~/auth/teams/schemas";
import { addOidcForm, addSamlForm } from "~/auth/sso/schemas";
import { expiryText } from "~/components/organization-confirm";
import { switchedWords } from "~/components/organization-switcher";
import { wordsFor } from "~/http/page-messages.server";
import { SHIPPED_CATALOGS } from "~/i18n/catalogs.server";
import { translator } from "~/i18n/format";
import { SHIPPED_LANGUAGES } from "~/i18n/languages";
import { saidIndex } from "~/i18n/said";

const source = Object.fromEntries(Object.entries(SHIPPED_CATALOGS.en).filter(([key]) => key.startsWith("said.")));
const index = saidIndex(source);

function messagesOf(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

/** The refusals the organization, team, role and SSO pages can show, in the catalogue's words. */
const REFUSED: ErrorName[] = [
  "ROLE_NOT_FOUND",
  "ORGANIZATION_NOT_FOUND",
  "MEMBER_NOT_FOUND",
  "ROLE_NAME_IS_ALREADY_TAKEN",
  "INVITATION_NOT_FOUND",
  "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER",
  "TEAM_NOT_FOUND",
  "TEAM_ALREADY_EXISTS",
  "ORGANIZATION_ALREADY_EXISTS",
  "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM",
  "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION",
  "USER_IS_NOT_A_MEMBER_OF_THE_TEAM",
  "USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION",
  "SSO_PROVIDER_WITH_THIS_PROVIDERID_ALREADY_EXISTS",
  "PROVIDER_NOT_FOUND",
  "ORGANIZATION_MEMBERSHIP_LIMIT_REACHED",
  "DOMAIN_VERIFIED",
  "YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS",
  "YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_SSO_PROVIDERS",
  "YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS",
  "YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER",
  "YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER",
  "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION",
  "YOU_ARE_NOT_ALLOWED_TO_UPDATE_A_ROLE",
  "YOU_ARE_NOT_ALLOWED_TO_REMOVE_A_TEAM_MEMBER",
  "YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE",
  "YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION",
  "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION",
  "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER",
  "YOU_ARE_NOT_ALLOWED_TO_DELETE_TEAMS_IN_THIS_ORGANIZATION",
  "YOU_ARE_NOT_ALLOWED_TO_DELETE_A_ROLE",
  "YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION",
  "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_ROLE",
  "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM_MEMBER",
  "YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION",
  "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION",
  "USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION",
  "UNABLE_TO_REMOVE_LAST_TEAM",
  "TOO_MANY_ROLES",
  "TEAM_MEMBER_LIMIT_REACHED",
  "ROLE_IS_ASSIGNED_TO_MEMBERS",
  "INVALID_SSO_CONFIGURATION",
  "INVALID_RESOURCE",
  "CANNOT_DELETE_A_PRE_DEFINED_ROLE",
  "DOMAIN_VERIFICATION_FAILED",
];

/** The confirmations, each with the key it must be found as (patterns overlap: "… is now …"). */
const CONFIRMED: [string, string][] = [
  ["Acme Corp was created. You can invite people now.", "said.orgs.created"],
  [switchedWords("Acme Corp"), "said.orgs.switched"],
  [switchedWords(null), "said.orgs.noneActive"],
  ["ada@example.com is now owner.", "said.orgs.nowOwner"],
  ["ada@example.com is now admin.", "said.orgs.nowAdmin"],
  ["ada@example.com is now member.", "said.orgs.nowMember"],
  ["ada@example.com is now admin, billing.", "said.orgs.nowRole"],
  ["The team is now called Design Crew.", "said.orgs.teamRenamed"],
  ["ada@example.com was removed.", "said.orgs.memberRemoved"],
  ["The invitation of ada@example.com was canceled.", "said.orgs.invitationCanceled"],
  ["Invitation sent to ada@example.com.", "said.orgs.invitationSent"],
  ["Settings saved.", "said.orgs.settingsSaved"],
  ["You left Acme Inc.", "said.orgs.left"],
  ["Acme Inc was deleted.", "said.orgs.deleted"],
  ["Team Design created.", "said.orgs.teamCreated"],
  ["Design Crew is your active team.", "said.orgs.activeTeam"],
  ["Added to the team.", "said.orgs.addedToTeam"],
  ["Removed from the team. They are still in the organization.", "said.orgs.removedFromTeam"],
  ["The team was deleted. Its members are still in the organization.", "said.orgs.teamDeleted"],
  ["Role billing created.", "said.orgs.roleCreated"],
  ["Role billing saved.", "said.orgs.roleSaved"],
  ["Role billing deleted.", "said.orgs.roleDeleted"],
  ["Added okta-1. Next, prove the domain with the TXT record below.", "said.orgs.ssoAdded"],
  ["The domain of okta-1 is verified: its people can now sign in with SSO.", "said.orgs.ssoVerified"],
  ["A new TXT record value for okta-1 is below. It works for 7 days.", "said.orgs.ssoNewToken"],
  ["Removed okta-1. Its people can no longer sign in with it.", "said.orgs.ssoRemoved"],
  [
    "We could not find the TXT record on every domain yet. Check its name and value; DNS changes can take a while to show, so try again later.",
    "said.orgs.ssoRecordNotFound",
  ],
  ["Tick the box to confirm", "said.orgs.tickToConfirm"],
  // An OIDC connection's discovery refused (app/auth/sso/outbound.server.ts, discovery.server.ts).
  ["http://10.0.0.1 is a cloud metadata host; add it to SSO_TRUSTED_IDP_ORIGINS if it is yours", "said.orgs.idpMetadataHost"],
  ["http://localhost:9 is a loopback host; add it to SSO_TRUSTED_IDP_ORIGINS if it is yours", "said.orgs.idpLoopbackHost"],
  ["http://10.0.0.1 is a private, loopback or link-local address; add it to SSO_TRUSTED_IDP_ORIGINS if it is yours", "said.orgs.idpPrivateAddress"],
  ["https://idp.corp resolves to a private, loopback or link-local address; add it to SSO_TRUSTED_IDP_ORIGINS if it is yours", "said.orgs.idpResolvesPrivate"],
  ["Invalid OIDC endpoint URL: nope", "said.orgs.idpInvalidUrl"],
  ["OIDC discovery endpoint not found at https://idp.example.com/.well-known/openid-configuration", "said.orgs.idpDiscoveryNotFound"],
  ["OIDC issuer mismatch: the discovery document names https://a.example, not https://b.example", "said.orgs.idpIssuerMismatch"],
  ["OIDC discovery document is missing required fields: jwks_uri, token_endpoint", "said.orgs.idpMissingFields"],
  ["OIDC discovery returned invalid data: issuer is not a string", "said.orgs.idpNotString"],
  ["https://idp.example.com did not answer within 10 s", "said.orgs.idpTimeout"],
  ["https://idp.example.com answered with more than 1 MB", "said.orgs.idpTooLarge"],
  ["https://idp.example.com/token answered with a redirect (302), which is not followed", "said.orgs.idpRedirect"],
  ["https://idp.example.com answered 404", "said.orgs.idpStatus"],
  ["Incompatible OIDC provider: its token endpoint takes private_key_jwt, neither client_secret_basic nor client_secret_post", "said.orgs.idpIncompatible"],
  ["The answer is not a JSON object", "said.orgs.idpNotJson"],
];

const written: string[] = [
  ...messagesOf(createOrganizationForm, {}),
  ...messagesOf(createOrganizationForm, { name: " ", slug: " " }),
  ...messagesOf(createOrganizationForm, { name: "a\u0007b", slug: "-Bad-" }),
  ...messagesOf(organizationSettingsForm, { name: "x".repeat(300), slug: "x".repeat(80), logo: "ftp://example.com" }),
  ...messagesOf(inviteForm, {}),
  ...messagesOf(inviteForm, { email: "not an address", role: "Not A Role" }),
  ...messagesOf(memberRoleForm, { memberId: "m", role: "" }),
  ...messagesOf(roleForm, {}),
  ...messagesOf(roleForm, { name: "-bad name-" }),
  ...messagesOf(createTeamForm, {}),
  ...messagesOf(createTeamForm, { name: " " }),
  ...messagesOf(renameTeamForm, { name: "x".repeat(300) }),
  ...messagesOf(addOidcForm, {}),
  ...messagesOf(addOidcForm, { providerId: "bad id!", domain: "nope", issuer: "ftp://x", clientId: " ", clientSecret: "" }),
  ...messagesOf(addSamlForm, {}),
  ...messagesOf(addSamlForm, { providerId: "x".repeat(60), domain: " ", idpEntityId: " ", entryPoint: "nope", cert: "" }),
  ...REFUSED.map((code) => wordsFor(new AuthError(code))),
  ...CONFIRMED.map(([text]) => text),
];

test("every sentence the organization pages write is one of the catalog's", () => {
  expect(written.length).toBeGreaterThan(60);
  expect(written.filter((text) => index.find(text) === null)).toEqual([]);
});

test("each confirmation is found as its own sentence, not one that looks alike", () => {
  for (const [text, key] of CONFIRMED) expect(index.find(text)?.key, text).toBe(key);
});

describe.each(SHIPPED_LANGUAGES.filter((language) => language !== "en"))("in %s", (language) => {
  const t = translator(language, SHIPPED_CATALOGS[language], source);
  test("each is said in the language, its names kept", () => {
    for (const text of written) {
      const { key } = index.find(text)!;
      if (SHIPPED_CATALOGS[language][key] !== SHIPPED_CATALOGS.en[key]) expect(t.said(text), text).not.toBe(text);
    }
    expect(t.said("Invitation sent to ada@example.com.")).toContain("ada@example.com");
    expect(t.said("Team Design Crew created.")).toContain("Design Crew");
  });
});

test("an invitation's expiry, counted in calendar days in UTC, the year only when it is not this one", () => {
  const now = new Date("2026-11-26T20:00:00Z");
  const en = translator("en", SHIPPED_CATALOGS.en);
  expect(expiryText(en, new Date("2026-11-28T20:00:00Z"), now)).toBe("in 2 days, on 28 November");
  expect(expiryText(en, new Date("2026-11-27T01:00:00Z"), now)).toBe("tomorrow, 27 November");
  expect(expiryText(en, new Date("2026-11-26T23:00:00Z"), now)).toBe("today, 26 November");
  expect(expiryText(en, new Date("2027-01-03T10:00:00Z"), now)).toBe("in 38 days, on 3 January 2027");
  const de = translator("de", SHIPPED_CATALOGS.de);
  expect(expiryText(de, new Date("2026-11-28T20:00:00Z"), now)).toBe("in 2 Tagen, am 28. November");
  expect(expiryText(de, new Date("2026-11-27T01:00:00Z"), now)).toBe("morgen, 27. November");
  const ar = translator("ar", SHIPPED_CATALOGS.ar);
  expect(expiryText(ar, new Date("2026-11-28T20:00:00Z"), now)).toContain("يومين");
});
