import { api } from '../../api/api';

export interface Page<T> {
  items: T[];
  page: number;
  size: number;
  totalCount: number;
}
export interface IdentityUser {
  id: number | string;
  email: string;
  firstName: string;
  lastName: string;
  roles: string[];
  isActive: boolean;
}
export interface Role {
  id: number | string;
  name: string;
  permissions: string[];
  isBuiltIn: boolean;
}
export interface PermissionInfo {
  code: string;
  resource: string;
  action: string;
}

// Read-only queries for the settings overview.
const settingsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getUsersPage: build.query<Page<IdentityUser>, { page: number; size: number }>({
      query: ({ page, size }) => ({ url: '/identity/users', params: { Page: page, Size: size } }),
    }),
    getRoles: build.query<Role[], void>({ query: () => '/identity/roles' }),
    getPermissions: build.query<PermissionInfo[], void>({ query: () => '/identity/permissions' }),
  }),
});

export const { useGetUsersPageQuery, useGetRolesQuery, useGetPermissionsQuery } = settingsApi;
