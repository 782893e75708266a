// The client's types are the server's: checked by `npm run typecheck` (tsc reads this file), run as a plain test.
// Each `@ts-expect-error` is a call the server's schema refuses; if the schema changed so that the call became
// valid (or a valid call invalid), the typecheck fails — which is the point: a server change that breaks a
// client call cannot go unnoticed.
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { createAuthClient, type AuthClient } from "~/client";
import type { BodyOf, DataOf } from "~/client/types";
import type { EndpointHandler } from "~/http/endpoint.server";

type Result<T extends (...args: never[]) => Promise<{ data: unknown }>> = NonNullable<Awaited<ReturnType<T>>["data"]>;

describe("argument types come from the routes' zod schemas", () => {
  it("refuses what the server refuses", () => {
    const client: AuthClient = createAuthClient({ baseURL: "http://localhost:1" });
    expectTypeOf(client.signIn.email).parameter(0).toEqualTypeOf<BodyOf<typeof import("~/routes/api.auth.sign-in.email")>>();
    const checks = () => {
      // @ts-expect-error the server requires a password
      void client.signIn.email({ email: "ada@example.com" });
      // @ts-expect-error rememberMe is a boolean in the server's schema
      void client.signIn.email({ email: "ada@example.com", password: "x", rememberMe: "yes" });
      // @ts-expect-error an organization needs a slug
      void client.organization.create({ name: "Acme" });
      // @ts-expect-error get-invitation's query needs the invitation's id
      void client.organization.getInvitation({ query: {} });
      // @ts-expect-error a role needs its permission (issue 42)
      void client.organization.createRole({ role: "billing" });
      void client.organization.createRole({ role: "billing", permission: { team: ["create"] } });
      // @ts-expect-error a team member needs the user (issue 42)
      void client.organization.addTeamMember({ teamId: "t1" });
      void client.organization.setActiveTeam({ teamId: null });
      // Optional bodies and queries may be left out.
      void client.signOut();
      void client.getSession();
      void client.organization.getFullOrganization({ query: { organizationSlug: "acme" } });
    };
    expectTypeOf(checks).toBeFunction();
  });

  it("a schema change breaks a call written for the old schema", () => {
    const before = z.object({ name: z.string() });
    const after = before.extend({ slug: z.string() });
    type Before = { action: EndpointHandler<typeof before, z.ZodUnknown, Promise<{ ok: true }>> };
    type After = { action: EndpointHandler<typeof after, z.ZodUnknown, Promise<{ ok: true }>> };
    expectTypeOf<{ name: string }>().toMatchTypeOf<BodyOf<Before>>();
    expectTypeOf<{ name: string }>().not.toMatchTypeOf<BodyOf<After>>();
    expectTypeOf<DataOf<After>>().toEqualTypeOf<{ ok: true }>();
  });
});

describe("result types come from the server's handlers and presenters, as JSON", () => {
  it("dates arrive as strings; nullable answers stay nullable", () => {
    type Session = Awaited<ReturnType<AuthClient["getSession"]>>["data"];
    expectTypeOf<Session>().toBeNullable();
    expectTypeOf<NonNullable<Session>["user"]["createdAt"]>().toEqualTypeOf<string>();
    expectTypeOf<NonNullable<Session>["user"]["email"]>().toEqualTypeOf<string>();
    expectTypeOf<Result<AuthClient["signOut"]>>().toEqualTypeOf<{ success: boolean }>();
    expectTypeOf<Result<AuthClient["passkey"]["listUserPasskeys"]>[number]["createdAt"]>().toEqualTypeOf<string>();
    expectTypeOf<Result<AuthClient["listSessions"]>[number]["token"]>().toEqualTypeOf<string>();
    expectTypeOf<Result<AuthClient["organization"]["listRoles"]>[number]["role"]>().toEqualTypeOf<string>();
    expectTypeOf<Result<AuthClient["organization"]["createRole"]>["roleData"]["createdAt"]>().toEqualTypeOf<string>();
    expectTypeOf<Result<AuthClient["organization"]["listTeams"]>[number]["updatedAt"]>().toEqualTypeOf<string>();
    expectTypeOf<NonNullable<Result<AuthClient["organization"]["setActiveTeam"]>>["name"]>().toEqualTypeOf<string>();
  });
});
