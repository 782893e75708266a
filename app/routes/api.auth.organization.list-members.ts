import { z } from "zod";
import { idField, slugField } from "~/auth/organization/schemas";
import { FILTER_OPERATORS, listMembers, MEMBER_FIELDS } from "~/auth/organization/members.server";
import { pageQuery } from "~/auth/schemas";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  // Better Auth 1.7's query: a page (`limit`, default 100; `offset`), an order and one filter on a member field.
  query: pageQuery.extend({
    organizationId: idField.optional(),
    organizationSlug: slugField.optional(),
    sortBy: z.enum(MEMBER_FIELDS).optional(),
    sortDirection: z.enum(["asc", "desc"]).optional(),
    filterField: z.enum(MEMBER_FIELDS).optional(),
    filterOperator: z.enum(FILTER_OPERATORS).optional(),
    filterValue: z.string().max(200).optional(),
  }),
  handler: async ({ query, ctx }) => listMembers(await requireSession(ctx), query),
});
