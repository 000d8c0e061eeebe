import { hasPermission, isWritePermission } from '@cc/shared/permissions.ts';
import { useAppSelector } from '../app/hooks.ts';

const NO_PERMS: readonly string[] = [];

/**
 * Whether the user may change things, from the permission table (shared/src/permissions.ts): with `required`, that
 * permission; without, for areas that have no permission of their own (Workspace License), whether the user holds any
 * write permission at all, which is how the api decides (a customerViewer holds none). Screens hide what this denies.
 */
export function canChange(perms: readonly string[], required?: string): boolean {
  return required ? hasPermission(perms, required) : perms.some(isWritePermission);
}

/** `canChange` for the signed-in user. */
export function useCanChange(required?: string): boolean {
  const perms = useAppSelector((s) => s.session.claims?.perms ?? NO_PERMS);
  return canChange(perms, required);
}
