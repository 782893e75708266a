// The built-in organization roles' names as people read them, in their language: one set of catalog keys for the
// organization pages, the invitation page, the security-event sentences and the mails, so "admin" is the same word
// everywhere. The role keys programs read never change; a custom role's name is its organization's own words.
const ROLE_NAME_KEYS = { owner: "orgs.roleName.owner", admin: "orgs.roleName.admin", member: "orgs.roleName.member" } as const;

export const isBuiltInRole = (role: string): role is keyof typeof ROLE_NAME_KEYS => Object.hasOwn(ROLE_NAME_KEYS, role);

/** One role's name as shown: a built-in one in the reader's language (`t`: a translator's `t`), any other as written. */
export const roleName = (t: (key: string) => string, role: string): string => (isBuiltInRole(role) ? t(ROLE_NAME_KEYS[role]) : role);
