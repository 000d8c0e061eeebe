import { EMAIL_RE } from './constants.ts';
import { InputError, REQUIRED } from './input-error.ts';

export const EMAIL_LIST_NOT_VALID = 'Email list is not valid';
export const EMAIL_NOT_VALID = 'Email is not valid';

/** One e-mail as the forms take it: trimmed and lower-cased (spec 001 §5). */
export const normaliseEmail = (raw: string) => raw.trim().toLowerCase();

export const isEmail = (s: string) => EMAIL_RE.test(s);

/**
 * The New-user e-mail box: several e-mails separated by commas, lower-cased and trimmed; duplicates
 * collapse. Empty → 'This field is required'; any item not an e-mail (an empty item between two commas
 * included) → 'Email list is not valid'.
 */
export function parseEmailList(raw: string | undefined): string[] {
  const text = (raw ?? '').trim();
  if (text === '') throw new InputError(`emails: ${REQUIRED}`);
  const items = text.split(',').map(normaliseEmail);
  // A trailing comma is a typing habit, not a mistake.
  if (items.at(-1) === '' && items.length > 1) items.pop();
  if (items.some((e) => !isEmail(e))) throw new InputError(EMAIL_LIST_NOT_VALID);
  return [...new Set(items)];
}

/** One e-mail (User update): required and valid ('Email is not valid'). */
export function parseEmail(raw: string | undefined): string {
  const email = normaliseEmail(raw ?? '');
  if (email === '') throw new InputError(`email: ${REQUIRED}`);
  if (!isEmail(email)) throw new InputError(EMAIL_NOT_VALID);
  return email;
}
