// Teams' field rules (issue 42), shared by the JSON routes and the page forms.
import { z } from "zod";
import { isCleanName, NAME_CHARACTERS_WORDS, pageQuery } from "~/auth/schemas";
import { idField } from "~/auth/organization/schemas";

export const MAX_TEAM_NAME_LENGTH = 100;

/** Rule 6: trimmed, 1–100 characters, no control characters; unique per organization ignoring case (the index). */
export const teamNameField = z
  .string({ error: "Team name is required" })
  .trim()
  .min(1, "Team name is required")
  .max(MAX_TEAM_NAME_LENGTH, `Use at most ${MAX_TEAM_NAME_LENGTH} characters.`)
  .refine(isCleanName, NAME_CHARACTERS_WORDS);

/** What makes two team names one: the unique index is on this. */
export const normalizeTeamName = (name: string) => name.normalize("NFC").toLowerCase();

export const createTeamBody = z.object({ name: teamNameField, organizationId: idField.optional() });
export const updateTeamBody = z.object({
  teamId: idField,
  data: z.object({ name: teamNameField.optional(), organizationId: idField.optional() }),
});
export const removeTeamBody = z.object({ teamId: idField, organizationId: idField.optional() });
export const teamMemberBody = z.object({ teamId: idField, userId: idField, organizationId: idField.optional() });
export const setActiveTeamBody = z.object({ teamId: idField.nullable().optional() });

export const listTeamsQuery = pageQuery.extend({ organizationId: idField.optional() });
export const listTeamMembersQuery = pageQuery.extend({ teamId: idField.optional() });
export const listUserTeamsQuery = pageQuery.extend({ userId: idField.optional(), organizationId: idField.optional() });

/** An invitation's teams: one id or several (Better Auth's `teamId: string | string[]`). */
export const inviteTeamIdField = z.union([idField, z.array(idField).min(1).max(100)]);

// Page forms.
export const createTeamForm = z.object({ name: teamNameField });
export const renameTeamForm = z.object({ name: teamNameField });
/** The invite form's ticked team boxes (`name="teamId"`): none, one (a string) or several; always a list after. */
export const inviteTeamsField = z.preprocess(
  (value) => (value === undefined || value === "" ? undefined : Array.isArray(value) ? value : [value]),
  z.array(idField).max(100).optional(),
);
