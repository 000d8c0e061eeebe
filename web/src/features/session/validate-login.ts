import { EMAIL_RE, MESSAGES, MIN_PASSWORD_LENGTH } from '@cc/shared/constants.ts';

export interface LoginErrors {
  email?: string;
  password?: string;
}

/** Spec 001 §5 Login: e-mail required and valid; password required, at least 6 characters. */
export function validateLogin(email: string, password: string): LoginErrors {
  const errors: LoginErrors = {};
  if (!email.trim()) errors.email = MESSAGES.required;
  else if (!EMAIL_RE.test(email.trim())) errors.email = 'Email is not valid';
  if (!password) errors.password = MESSAGES.required;
  else if (password.length < MIN_PASSWORD_LENGTH) errors.password = MESSAGES.passwordTooShort;
  return errors;
}
