import { api } from '../api/api';
import type { Page, Schemas } from '../api/wire';

// The identity lists (users, roles, permissions), read by the settings overview and by the user and
// role pages: injected once, one cache per query. The identity feature's mutations invalidate the
// 'User' and 'Role' tags these provide.

export interface UsersQuery {
  page: number;
  size: number;
  email?: string;
  roles?: string[];
}

export const identityListsApi = api.enhanceEndpoints({ addTagTypes: ['User', 'Role'] }).injectEndpoints({
  endpoints: (build) => ({
    identityUsers: build.query<Page<Schemas['UserDto']>, UsersQuery>({
      query: ({ page, size, email, roles }) => ({
        url: '/identity/users',
        params: { Page: page, Size: size, ...(email ? { Email: email } : {}), ...(roles?.length ? { Roles: roles.join(',') } : {}) },
      }),
      providesTags: ['User'],
    }),
    identityRoles: build.query<Schemas['RoleDto'][], void>({ query: () => '/identity/roles', providesTags: ['Role'] }),
    identityPermissions: build.query<Schemas['PermissionInfo'][], void>({ query: () => '/identity/permissions' }),
  }),
});

export const { useIdentityUsersQuery, useIdentityRolesQuery, useIdentityPermissionsQuery } = identityListsApi;
