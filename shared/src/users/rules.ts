/**
 * User management rules (spec 001 §2.7, §4, §5) that need no store.
 */
import { ROLES, type Role } from '../permissions.ts';
import { InputError, required } from '../input-error.ts';

export const GRANT_AT_LEAST_ONE = 'Please grant access to at least one customer';
export const EMAIL_ALREADY_EXISTS = 'E-mail already exists';
export const NO_ENTITY = 'No Entity';

export function parseRole(raw: string | undefined): Role {
  const role = (raw ?? '').trim();
  if (role === '') throw required('role');
  if (!(ROLES as readonly string[]).includes(role)) throw new InputError(`role: must be one of ${ROLES.join(', ')}`);
  return role as Role;
}

export function parseCustomers(raw: string[] | undefined): string[] {
  const ids = [...new Set((raw ?? []).map((c) => c.trim()).filter(Boolean))];
  if (ids.length === 0) throw new InputError(GRANT_AT_LEAST_ONE);
  return ids;
}

export const emailsExist = (emails: string[]) => new InputError(`${EMAIL_ALREADY_EXISTS}: ${emails.join(', ')}`);

/** The Entities column: distinct entity names of the user's customers, 'No Entity' for a customer without one. */
export function entityNames(customers: { entity_name: string | null }[]): string[] {
  return [...new Set(customers.map((c) => c.entity_name ?? NO_ENTITY))].sort((a, b) => a.localeCompare(b));
}
