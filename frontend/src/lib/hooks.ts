import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { useDispatch, useSelector } from 'react-redux';
import type { api } from '../api/api';
import { selectPermissions, type AuthState } from '../api/authSlice';
import type { PermissionCode } from './permissions';

/**
 * The store's state as the code below the app sees it (the auth slice and the api cache).
 * app/store.ts builds the store and fails to compile if it stops providing this.
 */
export interface AppState {
  auth: AuthState;
  api: ReturnType<(typeof api)['reducer']>;
}
export type AppDispatch = ThunkDispatch<AppState, unknown, UnknownAction>;

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<AppState>();

/** True when the signed-in user's permission list holds `permission` (none needed: always). */
export function useHasPermission(permission: PermissionCode | undefined): boolean {
  const permissions = useAppSelector(selectPermissions);
  return !permission || permissions.includes(permission);
}
