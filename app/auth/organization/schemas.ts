// The organization capability's field rules, shared by the JSON routes and the page forms.
import { z } from "zod";
import { emailField, isCleanName, MAX_NAME_LENGTH, NAME_CHARACTERS_WORDS, pageQuery } from "~/auth/schemas";
import { normalizeRoleName, ROLE_NAME_PATTERN, ROLE_NAME_WORDS } from "~/auth/organization/permissions";

export const MAX_SLUG_LENGTH = 64;
const ID_MAX = 128;

export const slugField = z
  .string({ error: "Slug is required" })
  .trim()
  .min(1, "Slug is required")
  .max(MAX_SLUG_LENGTH, `Slug is at most ${MAX_SLUG_LENGTH} characters`)
  .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, "Slug may contain lowercase letters, digits and dashes (not at either end)");

/** Mailed to invitees: no control characters (see `isCleanName`), and bounded. */
export const orgNameField = z
  .string({ error: "Name is required" })
  .trim()
  .min(1, "Name is required")
  .max(MAX_NAME_LENGTH, `Use at most ${MAX_NAME_LENGTH} characters.`)
  .refine(isCleanName, NAME_CHARACTERS_WORDS);

/** Only http(s) addresses: a logo is rendered as an image on members' pages. */
export const logoField = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => value === "" || /^https?:\/\/[^\s]+$/i.test(value), "Logo must be an http(s) URL");

/** Spec §3: metadata is an optional map of strings. */
export const metadataField = z.record(z.string().max(200), z.string().max(2000)).refine((m) => Object.keys(m).length <= 50, "Too many metadata entries");

export const idField = z.string().min(1).max(ID_MAX);
/** One role or several (an array, or comma-separated). */
export const roleField = z.union([z.string().min(1).max(200), z.array(z.string().min(1).max(50)).min(1).max(3)]);

export const createOrganizationBody = z.object({
  name: orgNameField,
  slug: slugField,
  userId: idField.optional(),
  logo: logoField.optional(),
  metadata: metadataField.optional(),
  keepCurrentActiveOrganization: z.boolean().optional(),
});

export const updateOrganizationBody = z.object({
  data: z.object({
    name: orgNameField.optional(),
    slug: slugField.optional(),
    logo: logoField.nullable().optional(),
    metadata: metadataField.nullable().optional(),
  }),
  organizationId: idField.optional(),
});

export const inviteMemberBody = z.object({
  email: emailField,
  role: roleField,
  organizationId: idField.optional(),
  resend: z.boolean().optional(),
  /** Teams the invitee joins on accepting (issue 42): one id or several. */
  teamId: z.union([idField, z.array(idField).min(1).max(100)]).optional(),
});

export const permissionsField = z.record(z.string().max(50), z.array(z.string().max(50)).max(20));

// Page forms (flat fields only).
export const createOrganizationForm = z.object({ name: orgNameField, slug: slugField });
export const organizationSettingsForm = z.object({ name: orgNameField, slug: slugField, logo: logoField.optional() });
/** A role chosen on a page: built-in or the organization's own (the domain checks which exist and may be given). */
const roleChoice = z.string({ error: "Choose a role" }).regex(ROLE_NAME_PATTERN, "Choose a role");
export const inviteForm = z.object({ email: emailField, role: roleChoice });
export const memberRoleForm = z.object({ memberId: idField, role: roleChoice });

// An organization's own roles (issue 42, ADR 069). A new name is lower-cased, then must match rule 6; a name that
// only looks a role up is any short string (an unknown one is ROLE_NOT_FOUND).
export const newRoleNameField = z
  .string({ error: "Role name is required" })
  .max(200)
  .transform(normalizeRoleName)
  .pipe(z.string().regex(ROLE_NAME_PATTERN, ROLE_NAME_WORDS));
const roleLookup = { roleName: z.string().min(1).max(200).optional(), roleId: idField.optional() };
/** Resource → actions, bounded: the statement has five resources of at most four actions. */
export const rolePermissionField = z.record(z.string().max(50), z.array(z.string().max(50)).max(20)).refine((p) => Object.keys(p).length <= 20, "Too many resources");

export const createRoleBody = z.object({ role: newRoleNameField, permission: rolePermissionField, organizationId: idField.optional() });
export const listRolesQuery = pageQuery.extend({ organizationId: idField.optional() });
export const getRoleQuery = z.object({ ...roleLookup, organizationId: idField.optional() });
export const updateRoleBody = z.object({
  ...roleLookup,
  organizationId: idField.optional(),
  data: z.object({ permission: rolePermissionField.optional(), roleName: newRoleNameField.optional() }),
});
export const deleteRoleBody = z.object({ ...roleLookup, organizationId: idField.optional() });

/** The Roles pages' form: a name and one checkbox per permission, named `permission` with values like "team:create". */
export const roleForm = z.object({ name: newRoleNameField, permission: z.array(z.string().max(100)).max(50).optional() });
