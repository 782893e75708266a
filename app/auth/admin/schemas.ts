// The admin API's bodies and queries (Better Auth 1.7's admin plugin's, bounded) and the console's forms. The
// JSON routes and the console pages parse with these and call the same domain functions (users.server.ts…).
import { z } from "zod";
import { apiImageField, apiNameField, MAX_EMAIL_LENGTH, nameField } from "~/auth/schemas";

const MAX_ID_LENGTH = 128;
const MAX_ROLE_LENGTH = 64;
const MAX_REASON_LENGTH = 500;
/** Longest ban with an end: ten years, in seconds (a longer one is a ban without an end). */
export const MAX_BAN_SECONDS = 10 * 365 * 24 * 60 * 60;
/** Users one page of list-users may hold; a request without `limit` gets DEFAULT_PAGE_SIZE. */
export const MAX_PAGE_SIZE = 500;
export const DEFAULT_PAGE_SIZE = 100;

/** Better Auth coerces ids to strings (`z.coerce.string()`); bounded here, and never empty. */
export const userIdField = z.coerce.string().trim().min(1).max(MAX_ID_LENGTH);
const roleName = z.string().trim().min(1).max(MAX_ROLE_LENGTH);
/** A role as Better Auth takes it: one name, or a list joined with commas. */
export const roleInput = z.union([roleName, z.array(roleName).min(1).max(10)]);
const emailInput = z.string().trim().min(1).max(MAX_EMAIL_LENGTH);

export const userIdBody = z.object({ userId: userIdField });

export const createUserBody = z.object({
  email: emailInput,
  password: z.string().max(1024).optional(),
  name: apiNameField,
  role: roleInput.optional(),
  data: z.record(z.string().max(64), z.unknown()).optional(),
});

/** The fields update-user may change; any other key is refused, so a typo is not silently dropped. */
export const updatableUserData = z
  .object({
    name: apiNameField.optional(),
    image: apiImageField,
    email: emailInput.optional(),
    emailVerified: z.boolean().optional(),
    role: roleInput.optional(),
    banned: z.boolean().optional(),
    banReason: z.string().max(MAX_REASON_LENGTH).nullish(),
    // Better Auth takes a date; JSON carries it as an ISO string or a number of milliseconds.
    banExpires: z.union([z.iso.datetime({ offset: true }), z.number().int().positive()]).nullish(),
    password: z.unknown().optional(),
    id: z.unknown().optional(),
  })
  .strict();
export const updateUserBody = z.object({ userId: userIdField, data: z.record(z.string().max(64), z.unknown()) });

export const setRoleBody = z.object({ userId: userIdField, role: roleInput });

export const banUserBody = z.object({
  userId: userIdField,
  banReason: z.string().max(MAX_REASON_LENGTH).optional(),
  banExpiresIn: z.number().int().positive().max(MAX_BAN_SECONDS).optional(),
});

export const revokeUserSessionBody = z.object({ sessionToken: z.string().min(1).max(256) });

export const setUserPasswordBody = z.object({ newPassword: z.string().min(1).max(1024), userId: userIdField });

const permissionMap = z.record(z.string().max(64), z.array(z.string().max(64)).max(50));
export const hasPermissionBody = z
  .object({
    userId: z.coerce.string().max(MAX_ID_LENGTH).optional(),
    role: z.string().max(MAX_ROLE_LENGTH).optional(),
    permission: permissionMap.optional(),
    permissions: permissionMap.optional(),
  })
  .refine((body) => (body.permission === undefined) !== (body.permissions === undefined), {
    message: "pass either permission or permissions",
  });

const numberish = z.union([z.string().max(12).regex(/^\d*$/), z.number().int().min(0)]).optional();
export const SORTABLE_FIELDS = ["createdAt", "updatedAt", "email", "name", "role", "banned", "emailVerified", "id"] as const;
export const FILTERABLE_FIELDS = ["id", "email", "name", "role", "banned", "emailVerified", "username"] as const;
export const FILTER_OPERATORS = ["eq", "ne", "lt", "lte", "gt", "gte", "in", "not_in", "contains", "starts_with", "ends_with"] as const;

export const listUsersQuery = z.object({
  searchValue: z.string().max(MAX_EMAIL_LENGTH).optional(),
  searchField: z.enum(["email", "name"]).optional(),
  searchOperator: z.enum(["contains", "starts_with", "ends_with"]).optional(),
  limit: numberish,
  offset: numberish,
  sortBy: z.string().max(64).optional(),
  sortDirection: z.enum(["asc", "desc"]).optional(),
  filterField: z.string().max(64).optional(),
  filterValue: z.union([z.string().max(MAX_EMAIL_LENGTH), z.number(), z.boolean(), z.array(z.string().max(MAX_EMAIL_LENGTH)).max(100)]).optional(),
  filterOperator: z.enum(FILTER_OPERATORS).optional(),
});
export type ListUsersQuery = z.infer<typeof listUsersQuery>;

// The console's forms (worded for people; the pages show these messages).
export const BAN_DURATIONS = { "1h": 60 * 60, "1d": 24 * 60 * 60, "7d": 7 * 24 * 60 * 60, "30d": 30 * 24 * 60 * 60, forever: 0 } as const;
export const banFormSchema = z.object({
  banReason: z.string().trim().max(MAX_REASON_LENGTH, `Use at most ${MAX_REASON_LENGTH} characters.`).optional(),
  duration: z.enum(Object.keys(BAN_DURATIONS) as [keyof typeof BAN_DURATIONS, ...(keyof typeof BAN_DURATIONS)[]], { error: "Choose how long the ban lasts." }),
});
export const setRoleFormSchema = z.object({ role: z.enum(["user", "admin"], { error: "Choose a role." }) });
export const sessionIdFormSchema = z.object({ sessionId: z.string().min(1).max(MAX_ID_LENGTH) });
export const noFieldsFormSchema = z.object({});
export function setUserPasswordFormSchema(bounds: { min: number; max: number }) {
  return z.object({
    newPassword: z
      .string({ error: "Enter a password." })
      .min(bounds.min, `Use at least ${bounds.min} characters.`)
      .max(bounds.max, `Use at most ${bounds.max} characters.`),
  });
}
/** Deleting names the account: the admin types its address, so a slip of the mouse deletes nothing. */
export const deleteUserFormSchema = z.object({ confirmEmail: z.string({ error: "Type the account's email address to confirm." }).trim().min(1, "Type the account's email address to confirm.").max(MAX_EMAIL_LENGTH) });
export const profileFormSchema = z.object({ name: nameField });

// The console's applications page (/admin/applications): registering an OpenID client, as `npm run oidc --
// add-client` does. Addresses one per line; the domain (oidc-provider/clients.server.ts) checks each.
const MAX_CLIENT_NAME_LENGTH = 100;
const MAX_URIS = 10;
const MAX_URI_LENGTH = 2000;
const uriLines = (field: string) =>
  z
    .string()
    .max(MAX_URIS * (MAX_URI_LENGTH + 2), `Use at most ${MAX_URIS} addresses.`)
    .optional()
    .transform((text) => (text ?? "").split(/\r?\n/).map((line) => line.trim()).filter(Boolean))
    .pipe(z.array(z.string().max(MAX_URI_LENGTH, `An address in ${field} is too long.`)).max(MAX_URIS, `Use at most ${MAX_URIS} addresses.`));
export const CLIENT_KINDS = ["confidential", "public", "trusted"] as const;
export const registerClientFormSchema = z.object({
  name: z.string({ error: "Enter the application's name." }).trim().min(1, "Enter the application's name.").max(MAX_CLIENT_NAME_LENGTH, `Use at most ${MAX_CLIENT_NAME_LENGTH} characters.`),
  redirectUris: uriLines("the redirect addresses").refine((uris) => uris.length > 0, "Enter at least one redirect address."),
  postLogoutRedirectUris: uriLines("the sign-out addresses"),
  homepageUrl: z.string().trim().max(MAX_URI_LENGTH, "That address is too long.").optional(),
  kind: z.enum(CLIENT_KINDS, { error: "Choose what kind of application it is." }),
});
export const clientIdFormSchema = z.object({ clientId: z.string().min(1).max(MAX_ID_LENGTH) });
