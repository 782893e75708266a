// The project's own typed client for /api/auth (docs/decisions/022-typed-client.md): one method per call,
// grouped as the API is; arguments and results typed from the server's own route schemas and handlers; every
// call resolves to `{data, error}`; the session, passkey list and active organization kept live in stores that
// refetch after the calls that change them (spec §4), on focus, and when another tab signs in or out.
// Browser-safe: route modules are imported for their types only. React hooks: app/client/react.ts.
import { DEFAULT_BASE_PATH } from "~/client/constants";
import { createRequester, resolveBaseURL, type CallOptions, type FetchOptions } from "~/client/fetch";
import { passkeyCalls } from "~/client/passkey";
import { createSessionSync } from "~/client/session-sync";
import { createQueryStore, type QueryStore } from "~/client/store";
import type { BodyOf, DataOf, QueryOf } from "~/client/types";

export type { ClientError, ClientResult } from "~/client/types";
export type { FetchOptions, RetryOptions } from "~/client/fetch";
export type { QueryState, QueryStore } from "~/client/store";
export type { Passkey } from "~/client/passkey";

export interface AuthClientOptions {
  /** The server's origin (and optionally its auth path). Default: this page's origin. Must be a valid URL. */
  baseURL?: string;
  /** The auth path on that origin. Default: /api/auth. */
  basePath?: string;
  fetchOptions?: FetchOptions;
}

/** Per-call options: retries, or marking a POST as safe to repeat. */
export type PerCallOptions = Pick<CallOptions, "retry" | "idempotent">;

type Route = { action: unknown };
/** A body that may be left out when nothing in it is required. */
type BodyArgs<R extends Route> = unknown extends BodyOf<R>
  ? [body?: Record<string, never>, options?: PerCallOptions]
  : Record<string, never> extends NonNullable<BodyOf<R>>
    ? [body?: BodyOf<R>, options?: PerCallOptions]
    : [body: BodyOf<R>, options?: PerCallOptions];
type QueryArgs<R extends Route> = unknown extends QueryOf<R>
  ? [args?: Record<string, never>, options?: PerCallOptions]
  : Record<string, never> extends NonNullable<QueryOf<R>>
    ? [args?: { query?: QueryOf<R> }, options?: PerCallOptions]
    : [args: { query: QueryOf<R> }, options?: PerCallOptions];

/** After these calls succeed the session is refetched here and in every other tab (spec §4: sign-out, update-user, every sign-in or sign-up path). */
const CHANGES_SESSION = [
  /^\/sign-in\//,
  /^\/sign-up\//,
  /^\/sign-out$/,
  /^\/update-user$/,
  /^\/change-email$/,
  /^\/change-password$/,
  /^\/delete-user$/,
  /^\/revoke-sessions$/,
  /^\/two-factor\/(verify-|enable$|disable$)/,
  /^\/passkey\/verify-authentication$/,
  /^\/passkey\/sign-up\/verify-registration$/,
  /^\/email-otp\/verify-email$/,
  /^\/organization\/(set-active|accept-invitation|leave|delete|create)$/,
];
/** Spec §4: the passkey list after a registration is verified, and after a passkey is deleted or updated. */
const CHANGES_PASSKEYS = /^\/passkey\/(verify-registration|update-passkey|delete-passkey)$/;
const CHANGES_ACTIVE_ORGANIZATION = /^\/(organization\/(set-active|accept-invitation|leave|delete|create|update|remove-member|update-member-role)|sign-out)$/;

export function createAuthClient(options: AuthClientOptions = {}) {
  const baseURL = resolveBaseURL(options.baseURL, options.basePath, DEFAULT_BASE_PATH);
  const sync = createSessionSync();
  const stores: { session?: QueryStore<unknown>; passkeys?: QueryStore<unknown>; activeOrganization?: QueryStore<unknown> } = {};

  const request = createRequester(baseURL, {
    ...options.fetchOptions,
    onSuccess(context) {
      const path = context.path.split("?")[0];
      if (CHANGES_SESSION.some((pattern) => pattern.test(path))) sessionChanged();
      if (CHANGES_PASSKEYS.test(path)) stores.passkeys?.signal();
      if (CHANGES_ACTIVE_ORGANIZATION.test(path)) stores.activeOrganization?.signal();
      return options.fetchOptions?.onSuccess?.(context);
    },
  });

  /** This tab changed the session: refetch it here, and tell the other tabs. */
  function sessionChanged() {
    stores.session?.signal();
    stores.activeOrganization?.signal();
    sync.announce();
  }

  const post =
    <R extends Route>(path: string) =>
    (...[body, perCall]: BodyArgs<R>) =>
      request<DataOf<R>>(path, { method: "POST", body: body ?? {}, ...perCall });
  const get =
    <R extends Route>(path: string) =>
    (...[args, perCall]: QueryArgs<R>) =>
      request<DataOf<R>>(path, { method: "GET", query: (args as { query?: Record<string, unknown> } | undefined)?.query, ...perCall });

  const passkeys = passkeyCalls(request);

  const calls = {
    signIn: {
      email: post<typeof import("~/routes/api.auth.sign-in.email")>("/sign-in/email"),
      username: post<typeof import("~/routes/api.auth.sign-in.username")>("/sign-in/username"),
      social: post<typeof import("~/routes/api.auth.sign-in.social")>("/sign-in/social"),
      emailOtp: post<typeof import("~/routes/api.auth.sign-in.email-otp")>("/sign-in/email-otp"),
      passkey: passkeys.authenticate,
    },
    signUp: {
      email: post<typeof import("~/routes/api.auth.sign-up.email")>("/sign-up/email"),
    },
    signOut: post<typeof import("~/routes/api.auth.sign-out")>("/sign-out"),
    getSession: get<typeof import("~/routes/api.auth.get-session")>("/get-session"),
    listSessions: get<typeof import("~/routes/api.auth.list-sessions")>("/list-sessions"),
    revokeSession: post<typeof import("~/routes/api.auth.revoke-session")>("/revoke-session"),
    revokeSessions: post<typeof import("~/routes/api.auth.revoke-sessions")>("/revoke-sessions"),
    listSecurityEvents: get<typeof import("~/routes/api.auth.list-security-events")>("/list-security-events"),
    /** "This wasn't me": ends every session (this one too), forgets devices, mails a reset link. */
    endAllSessions: post<typeof import("~/routes/api.auth.end-all-sessions")>("/end-all-sessions"),
    revokeOtherSessions: post<typeof import("~/routes/api.auth.revoke-other-sessions")>("/revoke-other-sessions"),
    updateUser: post<typeof import("~/routes/api.auth.update-user")>("/update-user"),
    isUsernameAvailable: post<typeof import("~/routes/api.auth.is-username-available")>("/is-username-available"),
    changePassword: post<typeof import("~/routes/api.auth.change-password")>("/change-password"),
    changeEmail: post<typeof import("~/routes/api.auth.change-email")>("/change-email"),
    deleteUser: post<typeof import("~/routes/api.auth.delete-user")>("/delete-user"),
    sendVerificationEmail: post<typeof import("~/routes/api.auth.send-verification-email")>("/send-verification-email"),
    // The route's POST confirms a link opened elsewhere (issue 37); the link itself is its GET.
    verifyEmail: get<{ action: (typeof import("~/routes/api.auth.verify-email"))["loader"] }>("/verify-email"),
    requestPasswordReset: post<typeof import("~/routes/api.auth.request-password-reset")>("/request-password-reset"),
    /** The specification's name for requestPasswordReset (POST /forget-password). */
    forgetPassword: post<typeof import("~/routes/api.auth.forget-password")>("/forget-password"),
    resetPassword: post<typeof import("~/routes/api.auth.reset-password")>("/reset-password"),
    linkSocial: post<typeof import("~/routes/api.auth.link-social")>("/link-social"),
    unlinkAccount: post<typeof import("~/routes/api.auth.unlink-account")>("/unlink-account"),
    listAccounts: get<typeof import("~/routes/api.auth.list-accounts")>("/list-accounts"),
    getAccessToken: post<typeof import("~/routes/api.auth.get-access-token")>("/get-access-token"),
    refreshToken: post<typeof import("~/routes/api.auth.refresh-token")>("/refresh-token"),
    passkey: passkeys.passkey,
    organization: {
      create: post<typeof import("~/routes/api.auth.organization.create")>("/organization/create"),
      update: post<typeof import("~/routes/api.auth.organization.update")>("/organization/update"),
      delete: post<typeof import("~/routes/api.auth.organization.delete")>("/organization/delete"),
      checkSlug: post<typeof import("~/routes/api.auth.organization.check-slug")>("/organization/check-slug"),
      setActive: post<typeof import("~/routes/api.auth.organization.set-active")>("/organization/set-active"),
      list: get<typeof import("~/routes/api.auth.organization.list")>("/organization/list"),
      getFullOrganization: get<typeof import("~/routes/api.auth.organization.get-full-organization")>("/organization/get-full-organization"),
      getActiveMember: get<typeof import("~/routes/api.auth.organization.get-active-member")>("/organization/get-active-member"),
      getActiveMemberRole: get<typeof import("~/routes/api.auth.organization.get-active-member-role")>("/organization/get-active-member-role"),
      listMembers: get<typeof import("~/routes/api.auth.organization.list-members")>("/organization/list-members"),
      removeMember: post<typeof import("~/routes/api.auth.organization.remove-member")>("/organization/remove-member"),
      updateMemberRole: post<typeof import("~/routes/api.auth.organization.update-member-role")>("/organization/update-member-role"),
      leave: post<typeof import("~/routes/api.auth.organization.leave")>("/organization/leave"),
      inviteMember: post<typeof import("~/routes/api.auth.organization.invite-member")>("/organization/invite-member"),
      acceptInvitation: post<typeof import("~/routes/api.auth.organization.accept-invitation")>("/organization/accept-invitation"),
      rejectInvitation: post<typeof import("~/routes/api.auth.organization.reject-invitation")>("/organization/reject-invitation"),
      cancelInvitation: post<typeof import("~/routes/api.auth.organization.cancel-invitation")>("/organization/cancel-invitation"),
      getInvitation: get<typeof import("~/routes/api.auth.organization.get-invitation")>("/organization/get-invitation"),
      listInvitations: get<typeof import("~/routes/api.auth.organization.list-invitations")>("/organization/list-invitations"),
      listUserInvitations: get<typeof import("~/routes/api.auth.organization.list-user-invitations")>("/organization/list-user-invitations"),
      hasPermission: post<typeof import("~/routes/api.auth.organization.has-permission")>("/organization/has-permission"),
      // An organization's own roles (issue 42, ADR 069), as Better Auth's dynamicAccessControl names them.
      createRole: post<typeof import("~/routes/api.auth.organization.create-role")>("/organization/create-role"),
      listRoles: get<typeof import("~/routes/api.auth.organization.list-roles")>("/organization/list-roles"),
      getRole: get<typeof import("~/routes/api.auth.organization.get-role")>("/organization/get-role"),
      updateRole: post<typeof import("~/routes/api.auth.organization.update-role")>("/organization/update-role"),
      deleteRole: post<typeof import("~/routes/api.auth.organization.delete-role")>("/organization/delete-role"),
      // Teams (issue 42, ADR 068), as Better Auth's organization plugin with `teams` names them.
      createTeam: post<typeof import("~/routes/api.auth.organization.create-team")>("/organization/create-team"),
      listTeams: get<typeof import("~/routes/api.auth.organization.list-teams")>("/organization/list-teams"),
      updateTeam: post<typeof import("~/routes/api.auth.organization.update-team")>("/organization/update-team"),
      removeTeam: post<typeof import("~/routes/api.auth.organization.remove-team")>("/organization/remove-team"),
      addTeamMember: post<typeof import("~/routes/api.auth.organization.add-team-member")>("/organization/add-team-member"),
      removeTeamMember: post<typeof import("~/routes/api.auth.organization.remove-team-member")>("/organization/remove-team-member"),
      listTeamMembers: get<typeof import("~/routes/api.auth.organization.list-team-members")>("/organization/list-team-members"),
      listUserTeams: get<typeof import("~/routes/api.auth.organization.list-user-teams")>("/organization/list-user-teams"),
      setActiveTeam: post<typeof import("~/routes/api.auth.organization.set-active-team")>("/organization/set-active-team"),
    },
    twoFactor: {
      enable: post<typeof import("~/routes/api.auth.two-factor.enable")>("/two-factor/enable"),
      disable: post<typeof import("~/routes/api.auth.two-factor.disable")>("/two-factor/disable"),
      setOtp: post<typeof import("~/routes/api.auth.two-factor.set-otp")>("/two-factor/set-otp"),
      getTotpUri: post<typeof import("~/routes/api.auth.two-factor.get-totp-uri")>("/two-factor/get-totp-uri"),
      generateBackupCodes: post<typeof import("~/routes/api.auth.two-factor.generate-backup-codes")>("/two-factor/generate-backup-codes"),
      verifyTotp: post<typeof import("~/routes/api.auth.two-factor.verify-totp")>("/two-factor/verify-totp"),
      sendOtp: post<typeof import("~/routes/api.auth.two-factor.send-otp")>("/two-factor/send-otp"),
      verifyOtp: post<typeof import("~/routes/api.auth.two-factor.verify-otp")>("/two-factor/verify-otp"),
      verifyBackupCode: post<typeof import("~/routes/api.auth.two-factor.verify-backup-code")>("/two-factor/verify-backup-code"),
    },
    emailOtp: {
      sendVerificationOtp: post<typeof import("~/routes/api.auth.email-otp.send-verification-otp")>("/email-otp/send-verification-otp"),
      checkVerificationOtp: post<typeof import("~/routes/api.auth.email-otp.check-verification-otp")>("/email-otp/check-verification-otp"),
      verifyEmail: post<typeof import("~/routes/api.auth.email-otp.verify-email")>("/email-otp/verify-email"),
      requestPasswordReset: post<typeof import("~/routes/api.auth.email-otp.request-password-reset")>("/email-otp/request-password-reset"),
      resetPassword: post<typeof import("~/routes/api.auth.email-otp.reset-password")>("/email-otp/reset-password"),
    },
  };

  type SessionData = NonNullable<DataOf<typeof import("~/routes/api.auth.get-session")>>;
  type PasskeyList = DataOf<typeof import("~/routes/api.auth.passkey.list-user-passkeys")>;
  type ActiveOrganization = DataOf<typeof import("~/routes/api.auth.organization.get-full-organization")>;

  const session = createQueryStore<SessionData | null>(() => calls.getSession({ query: { disableCookieCache: "true" } }), {
    // While watched: refetch when another tab announces a change or this window is focused again.
    onStart: (store) => sync.listen(() => store.signal()),
  });
  const passkeyList = createQueryStore<PasskeyList>(() => calls.passkey.listUserPasskeys());
  const activeOrganization = createQueryStore<ActiveOrganization>(() => calls.organization.getFullOrganization());
  stores.session = session as QueryStore<unknown>;
  stores.passkeys = passkeyList as QueryStore<unknown>;
  stores.activeOrganization = activeOrganization as QueryStore<unknown>;

  return {
    ...calls,
    baseURL,
    /** The live stores behind the React hooks (framework-free: subscribe / getSnapshot). */
    $store: { session, passkeys: passkeyList, activeOrganization },
    /**
     * Something other than this client changed the session (a page form's action, e.g. the profile page or a
     * sign-out button): refetch it here and in the other tabs.
     */
    $sessionChanged: sessionChanged,
  };
}

export type AuthClient = ReturnType<typeof createAuthClient>;
/** The signed-in session and user, as GET /get-session answers them. */
export type SessionData = NonNullable<DataOf<typeof import("~/routes/api.auth.get-session")>>;
