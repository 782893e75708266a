// Better Auth's official client with its organizationClient() plugin drives the organization routes (issue 9):
// the compatibility promise for organizations, checked against the real server.
import { createAuthClient } from "better-auth/client";
import { organizationClient } from "better-auth/client/plugins";
import { describe, expect, it } from "vitest";
import { PASSWORD, uniqueEmail } from "../support/client";
import { actionLink, Mailbox } from "../support/mailbox";
import { browserFetch } from "../support/better-auth";
import { useServerWithMailbox, type TestServer } from "../support/server";

let server: TestServer;
let mailbox: Mailbox;
useServerWithMailbox({}, (running) => ({ server, mailbox } = running));

/** The official client with a browser's cookie jar and Origin header (what `credentials: "include"` gives). */
function browserClient() {
  const { customFetchImpl, jar } = browserFetch(server);
  return { client: createAuthClient({ baseURL: server.baseUrl, fetchOptions: { customFetchImpl }, plugins: [organizationClient()] }), jar };
}

async function signedUp(label: string) {
  const { client, jar } = browserClient();
  const email = uniqueEmail(label);
  const result = await client.signUp.email({ name: label, email, password: PASSWORD });
  expect(result.error).toBeNull();
  return { client, jar, email, id: result.data!.user.id };
}

describe("Better Auth's organizationClient() against this server", () => {
  it("creates, invites, accepts, changes roles, checks permissions, removes, leaves and deletes", async () => {
    const owner = await signedUp("ba-owner");
    const slug = `ba-${Date.now().toString(36)}`;
    expect((await owner.client.organization.checkSlug({ slug })).data).toEqual({ status: true });
    const created = await owner.client.organization.create({ name: "Client Co", slug });
    expect(created.error).toBeNull();
    expect(created.data).toMatchObject({ name: "Client Co", slug });
    const organizationId = created.data!.id;
    const taken = await owner.client.organization.checkSlug({ slug });
    expect(taken.error).toMatchObject({ status: 400, code: "ORGANIZATION_ALREADY_EXISTS" });

    expect((await owner.client.organization.list()).data?.map((o) => o.id)).toEqual([organizationId]);
    expect((await owner.client.getSession()).data?.session).toMatchObject({ activeOrganizationId: organizationId });
    expect((await owner.client.organization.getActiveMemberRole()).data).toEqual({ role: "owner" });

    // An invitee verifies their address from the mail, then finds and accepts the invitation.
    const invitee = await signedUp("ba-invitee");
    // In the invitee's own browser (another would claim the never-proven account: ADR 028).
    await invitee.jar.get(actionLink(await mailbox.waitFor(invitee.email, /Verify your email/)));
    const invited = await owner.client.organization.inviteMember({ email: invitee.email, role: "member", organizationId });
    expect(invited.error).toBeNull();
    expect(invited.data).toMatchObject({ email: invitee.email, role: "member", status: "pending" });
    expect((await mailbox.waitFor(invitee.email, /invited to join an organization/)).text).toContain("“Client Co”");
    const mine = await invitee.client.organization.listUserInvitations();
    expect(mine.data?.map((i) => i.id)).toEqual([invited.data!.id]);
    const seen = await invitee.client.organization.getInvitation({ query: { id: invited.data!.id } });
    expect(seen.data).toMatchObject({ organizationName: "Client Co", organizationSlug: slug, inviterEmail: owner.email });
    const accepted = await invitee.client.organization.acceptInvitation({ invitationId: invited.data!.id });
    expect(accepted.error).toBeNull();
    expect(accepted.data?.member).toMatchObject({ organizationId, role: "member" });
    expect((await invitee.client.organization.getActiveMember()).data).toMatchObject({ organizationId, role: "member" });

    const full = await owner.client.organization.getFullOrganization({ query: { organizationId } });
    expect(full.data?.members.map((m) => m.user.email).sort()).toEqual([owner.email, invitee.email].sort());
    const members = await owner.client.organization.listMembers({ query: { organizationId } });
    expect(members.data?.total).toBe(2);
    const inviteeMember = members.data!.members.find((m) => m.userId === invitee.id)!;

    const denied = await invitee.client.organization.hasPermission({ permissions: { member: ["delete"] } });
    expect(denied.data).toMatchObject({ success: false });
    const promoted = await owner.client.organization.updateMemberRole({ memberId: inviteeMember.id, role: "admin", organizationId });
    expect(promoted.error).toBeNull();
    expect((await invitee.client.organization.hasPermission({ permissions: { member: ["delete"] } })).data).toMatchObject({ success: true });
    const notOwner = await invitee.client.organization.delete({ organizationId });
    expect(notOwner.error).toMatchObject({ status: 403, code: "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION" });

    const renamed = await invitee.client.organization.update({ data: { name: "Client Company" }, organizationId });
    expect(renamed.data).toMatchObject({ name: "Client Company" });

    // An admin may not invite an owner; the owner may, and may cancel it.
    const third = uniqueEmail("ba-third");
    const ownerInvite = await invitee.client.organization.inviteMember({ email: third, role: "owner", organizationId });
    expect(ownerInvite.error).toMatchObject({ status: 403, code: "YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE" });
    const pending = await owner.client.organization.inviteMember({ email: third, role: "owner", organizationId });
    expect((await owner.client.organization.listInvitations({ query: { organizationId } })).data?.some((i) => i.id === pending.data!.id)).toBe(true);
    expect((await owner.client.organization.cancelInvitation({ invitationId: pending.data!.id })).data).toMatchObject({ status: "canceled" });

    expect((await invitee.client.organization.leave({ organizationId })).error).toBeNull();
    expect((await invitee.client.organization.list()).data).toEqual([]);
    const onlyOwner = await owner.client.organization.leave({ organizationId });
    expect(onlyOwner.error).toMatchObject({ status: 400, code: "YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER" });

    expect((await owner.client.organization.setActive({ organizationId: null })).error).toBeNull();
    expect((await owner.client.getSession()).data?.session).toMatchObject({ activeOrganizationId: null });
    expect((await owner.client.organization.delete({ organizationId })).error).toBeNull();
    expect((await owner.client.organization.list()).data).toEqual([]);
  });

  it("rejects an invitation and removes a member by e-mail", async () => {
    const owner = await signedUp("ba-owner2");
    const created = await owner.client.organization.create({ name: "Second Co", slug: `ba2-${Date.now().toString(36)}` });
    const organizationId = created.data!.id;
    const invitee = await signedUp("ba-invitee2");
    // In the invitee's own browser (another would claim the never-proven account: ADR 028).
    await invitee.jar.get(actionLink(await mailbox.waitFor(invitee.email, /Verify your email/)));
    const first = await owner.client.organization.inviteMember({ email: invitee.email, role: "member", organizationId });
    expect((await invitee.client.organization.rejectInvitation({ invitationId: first.data!.id })).data).toMatchObject({ member: null });
    const second = await owner.client.organization.inviteMember({ email: invitee.email, role: "member", organizationId });
    expect((await invitee.client.organization.acceptInvitation({ invitationId: second.data!.id })).error).toBeNull();
    const removed = await owner.client.organization.removeMember({ memberIdOrEmail: invitee.email, organizationId });
    expect(removed.data?.member).toMatchObject({ userId: invitee.id });
    expect((await invitee.client.organization.getFullOrganization({ query: { organizationId } })).error).toMatchObject({ status: 403 });
  });
});
