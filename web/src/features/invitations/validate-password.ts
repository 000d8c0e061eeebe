import { MESSAGES, MIN_PASSWORD_LENGTH } from '@cc/shared/constants.ts';

export const PASSWORDS_DIFFER = 'Passwords do not match';

export interface PasswordErrors {
  password?: string;
  confirm?: string;
}

/** The new password follows the login rule (spec 001 §5: required, at least 6 characters), typed twice. */
export function validateNewPassword(password: string, confirm: string): PasswordErrors {
  const e: PasswordErrors = {};
  if (!password) e.password = MESSAGES.required;
  else if (password.length < MIN_PASSWORD_LENGTH) e.password = MESSAGES.passwordTooShort;
  if (!confirm) e.confirm = MESSAGES.required;
  else if (confirm !== password) e.confirm = PASSWORDS_DIFFER;
  return e;
}
