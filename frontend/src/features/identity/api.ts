import { api } from '../../api/api';
import type { Page, Schemas } from '../../api/wire';

// Users and roles (/identity): the changes. The lists are read through
// lib/identityLists.ts, whose 'User' and 'Role' tags these mutations invalidate.

export type User = Schemas['UserDto'];
export type NewUser = Schemas['CreateUserRequest'];
export type UserUpdate = Schemas['UpdateUserRequest'] & { id: number };
export type Role = Schemas['RoleDto'];
/** The codes come from GET /identity/permissions, whose `code` the document types as a plain string. */
export type RoleBody = Omit<Schemas['RoleRequest'], 'permissions'> & { permissions: string[] };
export type PermissionInfo = Schemas['PermissionInfo'];
/** A user just invited (or invited again) and what became of her invitation. */
export type InvitedUser = Schemas['InvitedUser'];
export type InvitationTerms = Schemas['InvitationTerms'];
/** A participant as the invitation's picker lists her (GET /participants rows). */
export type LinkableParticipant = Pick<Schemas['ParticipantDto'], 'id' | 'fullName' | 'email' | 'firstName' | 'lastName' | 'roleCode' | 'identityUserId'>;

const identityApi = api.enhanceEndpoints({ addTagTypes: ['User', 'Role'] }).injectEndpoints({
  endpoints: (build) => ({
    inviteUser: build.mutation<InvitedUser, NewUser>({
      // Without a password the server queues a mail with a set-password link (or, with no
      // relay, hands the link back).
      query: (body) => ({ url: '/identity/users', method: 'POST', body }),
      invalidatesTags: (result) => (result ? ['User'] : []),
      extraOptions: { quiet: true },
    }),
    resendInvitation: build.mutation<InvitedUser, number>({
      query: (id) => ({ url: `/identity/users/${id}/invitation`, method: 'POST' }),
      invalidatesTags: (result) => (result ? ['User'] : []),
    }),
    invitationTerms: build.query<InvitationTerms, void>({
      query: () => '/identity/invitation-terms',
    }),
    // Participants matching a name or an e-mail, for the invitation's picker.
    searchParticipants: build.query<Page<LinkableParticipant>, string>({
      query: (text) => ({
        url: '/participants',
        params: { [text.includes('@') ? 'Email' : 'FullName']: text, Size: '20' },
      }),
    }),
    updateUser: build.mutation<User, UserUpdate>({
      query: ({ id, ...body }) => ({ url: `/identity/users/${id}`, method: 'PUT', body }),
      invalidatesTags: (result) => (result ? ['User'] : []),
      extraOptions: { quiet: true },
    }),
    deactivateUser: build.mutation<void, number>({
      query: (id) => ({ url: `/identity/users/${id}`, method: 'DELETE' }),
      invalidatesTags: ['User'],
    }),
    createRole: build.mutation<Role, RoleBody>({
      query: (body) => ({ url: '/identity/roles', method: 'POST', body }),
      invalidatesTags: (result) => (result ? ['Role'] : []),
      extraOptions: { quiet: true },
    }),
    updateRole: build.mutation<Role, RoleBody & { id: number }>({
      query: ({ id, ...body }) => ({ url: `/identity/roles/${id}`, method: 'PUT', body }),
      invalidatesTags: (result) => (result ? ['Role', 'User'] : []),
      extraOptions: { quiet: true },
    }),
    deleteRole: build.mutation<void, number>({
      query: (id) => ({ url: `/identity/roles/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Role'],
    }),
  }),
});

export const {
  useInviteUserMutation,
  useResendInvitationMutation,
  useInvitationTermsQuery,
  useSearchParticipantsQuery,
  useUpdateUserMutation,
  useDeactivateUserMutation,
  useCreateRoleMutation,
  useUpdateRoleMutation,
  useDeleteRoleMutation,
} = identityApi;
