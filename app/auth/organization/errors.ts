// The organization capability's entries in the one error catalogue (spec §8, "Organization messages"), worded as
// Better Auth 1.7's organization plugin words them so its client sees the codes it knows. Spread into ERRORS.
export const ORGANIZATION_ERRORS = {
  YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION: [403, "You are not allowed to create a new organization"],
  YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS: [403, "You have reached the maximum number of organizations"],
  ORGANIZATION_ALREADY_EXISTS: [400, "Organization already exists"],
  ORGANIZATION_NOT_FOUND: [400, "Organization not found"],
  USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION: [403, "User is not a member of the organization"],
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION: [403, "You are not allowed to update this organization"],
  YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION: [403, "You are not allowed to delete this organization"],
  NO_ACTIVE_ORGANIZATION: [400, "No active organization"],
  USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION: [400, "User is already a member of this organization"],
  MEMBER_NOT_FOUND: [400, "Member not found"],
  ROLE_NOT_FOUND: [400, "Role not found"],
  YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER: [400, "You cannot leave the organization as the only owner"],
  YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER: [400, "You cannot leave the organization without an owner"],
  YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER: [403, "You are not allowed to delete this member"],
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER: [403, "You are not allowed to update this member"],
  YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION: [403, "You are not allowed to invite users to this organization"],
  USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION: [400, "User is already invited to this organization"],
  INVITATION_NOT_FOUND: [400, "Invitation not found"],
  YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION: [403, "You are not the recipient of the invitation"],
  EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION: [403, "Email verification required before accepting or rejecting invitation"],
  YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION: [403, "You are not allowed to cancel this invitation"],
  INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION: [400, "Inviter is no longer a member of the organization"],
  // Better Auth's code, which is not its message upper-cased (ORGANIZATION_CODES_NOT_FROM_MESSAGES).
  YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE: [403, "You are not allowed to invite a user with this role"],
  ORGANIZATION_MEMBERSHIP_LIMIT_REACHED: [403, "Organization membership limit reached"],
  YOU_ARE_THE_ONLY_OWNER_OF_AN_ORGANIZATION_WITH_OTHER_MEMBERS: [400, "You are the only owner of an organization with other members"],
  // An organization's own roles (issue 42, ADR 069), as Better Auth's dynamic access control words them.
  YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION: [403, "You are not a member of this organization"],
  YOU_MUST_BE_IN_AN_ORGANIZATION_TO_CREATE_A_ROLE: [400, "You must be in an organization to create a role"],
  YOU_ARE_NOT_ALLOWED_TO_CREATE_A_ROLE: [403, "You are not allowed to create a role"],
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_A_ROLE: [403, "You are not allowed to update a role"],
  YOU_ARE_NOT_ALLOWED_TO_DELETE_A_ROLE: [403, "You are not allowed to delete a role"],
  YOU_ARE_NOT_ALLOWED_TO_READ_A_ROLE: [403, "You are not allowed to read a role"],
  YOU_ARE_NOT_ALLOWED_TO_LIST_A_ROLE: [403, "You are not allowed to list a role"],
  TOO_MANY_ROLES: [400, "This organization has too many roles"],
  INVALID_RESOURCE: [400, "The provided permission includes an invalid resource"],
  ROLE_NAME_IS_ALREADY_TAKEN: [400, "That role name is already taken"],
  CANNOT_DELETE_A_PRE_DEFINED_ROLE: [400, "Cannot delete a pre-defined role"],
  ROLE_IS_ASSIGNED_TO_MEMBERS: [400, "Cannot delete a role that is assigned to members. Please reassign the members to a different role first"],
} as const;

/** Better Auth's codes whose message says something else (kept so its client matches). */
export const ORGANIZATION_CODES_NOT_FROM_MESSAGES = [
  "YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE",
  "TOO_MANY_ROLES",
  "INVALID_RESOURCE",
  "ROLE_NAME_IS_ALREADY_TAKEN",
  "CANNOT_DELETE_A_PRE_DEFINED_ROLE",
  "ROLE_IS_ASSIGNED_TO_MEMBERS",
] as const;
