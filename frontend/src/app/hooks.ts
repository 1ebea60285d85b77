import { useDispatch, useSelector } from 'react-redux';
import { selectPermissions } from '../api/authSlice';
import type { AppDispatch, RootState } from './store';

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();

/** True when the signed-in user's permission list holds `permission` (none needed: always). */
export function useHasPermission(permission: string | undefined): boolean {
  const permissions = useAppSelector(selectPermissions);
  return !permission || permissions.includes(permission);
}
