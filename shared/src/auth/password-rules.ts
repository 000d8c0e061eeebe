import { MESSAGES, MIN_PASSWORD_LENGTH } from '../constants.ts';
import { InputError, required } from '../input-error.ts';

/**
 * The product's rule for a password a user chooses (spec 001 §5: required, at least 6 characters, 'Must have at
 * least 6 characters'), as the invitation link applies it. The upper bound keeps argon2 from hashing megabytes.
 */
export const MAX_PASSWORD_LENGTH = 1024;

export function checkNewPassword(password: string, field = 'password'): void {
  if (password === '') throw required(field);
  if (password.length < MIN_PASSWORD_LENGTH) throw new InputError(MESSAGES.passwordTooShort);
  if (password.length > MAX_PASSWORD_LENGTH) throw new InputError(`Must have at most ${MAX_PASSWORD_LENGTH} characters`);
}
