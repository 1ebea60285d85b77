import { api } from '../../api/api';
import type { Schemas } from '../../api/wire';

// Users and roles (/identity): the changes. The lists are read through
// lib/identityLists.ts, whose 'User' and 'Role' tags these mutations invalidate.

export type User = Schemas['UserDto'];
export type NewUser = Schemas['CreateUserRequest'];
export type UserUpdate = Schemas['UpdateUserRequest'] & { id: number };
export type Role = Schemas['RoleDto'];
/** The codes come from GET /identity/permissions, whose `code` the document types as a plain string. */
export type RoleBody = Omit<Schemas['RoleRequest'], 'permissions'> & { permissions: string[] };
export type PermissionInfo = Schemas['PermissionInfo'];

const identityApi = api.enhanceEndpoints({ addTagTypes: ['User', 'Role'] }).injectEndpoints({
  endpoints: (build) => ({
    inviteUser: build.mutation<User, NewUser>({
      // Without a password the server mails a set-password link.
      query: (body) => ({ url: '/identity/users', method: 'POST', body }),
      invalidatesTags: (result) => (result ? ['User'] : []),
      extraOptions: { quiet: true },
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
  useUpdateUserMutation,
  useDeactivateUserMutation,
  useCreateRoleMutation,
  useUpdateRoleMutation,
  useDeleteRoleMutation,
} = identityApi;
