import { EMAIL_RE, MESSAGES } from '@cc/shared/constants.ts';
import { ROLES, type Role } from '@cc/shared/permissions.ts';

export const EMAIL_LIST_INVALID = 'Email list is not valid';
export const EMAIL_INVALID = 'Email is not valid';
export const GRANT_AT_LEAST_ONE = 'Please grant access to at least one customer';
export const EMAIL_EXISTS_TITLE = 'E-mail already exists';

/** The e-mail box of New Users: several, comma-separated, lower-cased and trimmed (spec 001 §5). */
export function parseEmailList(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
}

export interface UserFormErrors {
  role?: string;
  emails?: string;
  customers?: string;
}

export const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

/** New Users: role required, e-mail list required and valid, at least one customer granted. */
export function validateNewUsers(role: string, emails: string, customers: readonly string[]): UserFormErrors {
  const e: UserFormErrors = {};
  if (!isRole(role)) e.role = MESSAGES.required;
  const list = parseEmailList(emails);
  if (list.length === 0) e.emails = MESSAGES.required;
  else if (list.some((m) => !EMAIL_RE.test(m))) e.emails = EMAIL_LIST_INVALID;
  if (customers.length === 0) e.customers = GRANT_AT_LEAST_ONE;
  return e;
}

/** Update User: role required, one valid e-mail, at least one customer granted. */
export function validateUpdateUser(role: string, email: string, customers: readonly string[]): UserFormErrors {
  const e: UserFormErrors = {};
  if (!isRole(role)) e.role = MESSAGES.required;
  if (!email.trim()) e.emails = MESSAGES.required;
  else if (!EMAIL_RE.test(email.trim())) e.emails = EMAIL_INVALID;
  if (customers.length === 0) e.customers = GRANT_AT_LEAST_ONE;
  return e;
}

/** The api's 'E-mail already exists: a@x.y, b@x.y' detail: the e-mails, or null for any other error. */
export function existingEmails(detail: string | undefined): string[] | null {
  if (!detail || !detail.startsWith(EMAIL_EXISTS_TITLE)) return null;
  const rest = detail.slice(EMAIL_EXISTS_TITLE.length).replace(/^[:\s]+/, '');
  return rest
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
