/**
 * The license rules and messages of spec 001 §5, §8, §9, shared by the api (which answers them) and the screens
 * (which show them beside the field before sending).
 */
export const LICENSE_MESSAGES = {
  created: 'License was successfully created!',
  createFailed: 'Unable to create license',
  invalidInput: 'Invalid input',
  mustBeAboveZero: 'Must be above 0',
  updated: 'License updated',
  updateFailed: 'Could not update',
  incorrectInput: 'Incorrect input',
  notANumber: 'must be a number',
  greaterThanZero: 'number must be greater than 0',
  zeroOrGreater: 'number must be 0 or greater',
  overTotal: (total: number) => `number cant be over ${total}`,
  orderPlaced: 'Order placed',
  orderFailed: 'Error placing order',
  errorOccurred: 'Error occurred',
  actionOk: 'Action successful',
  actionFailed: 'Action failed',
} as const;

/** Spec 001 §9. */
export const LICENSE_PAGE_SIZE = 10;
export const LICENSE_PAGE_SIZES = [10, 50, 100] as const;
/**
 * Spec 001 §5 gives threshold 0 as the default but refuses 0 on create ('Must be above 0'), so the form failed on its
 * first submit: the threshold starts at 1 (auto order when one free seat is left); the rule and its text are the spec's.
 * sku_id 0 stays only when the domain lists no subscription to choose (the dialog preselects the first one).
 */
export const CREATE_LICENSE_DEFAULTS = { sku_id: 0, threshold: 1, auto_order: false, new_order: 1 } as const;
export const NEW_ORDER_DEFAULT = 1;
export const COMMENT_MAX = 1000;

/** A whole number written with digits only (a JSON number or its text), else null. */
export function digits(value: unknown): number | null {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  return /^\d{1,15}$/.test(text) ? Number(text) : null;
}

export type CreateField = 'sku_id' | 'threshold' | 'new_order';

/** Create license: sku_id, threshold and new_order must be numbers above 0. */
export function createLicenseErrors(input: Partial<Record<CreateField, unknown>>): Partial<Record<CreateField, string>> {
  const out: Partial<Record<CreateField, string>> = {};
  for (const field of ['sku_id', 'threshold', 'new_order'] as const) {
    const n = digits(input[field]);
    if (n === null) out[field] = LICENSE_MESSAGES.invalidInput;
    else if (n <= 0) out[field] = LICENSE_MESSAGES.mustBeAboveZero;
  }
  return out;
}

/** Order amount: digits only, at least 1, at most volume_total. */
export function orderAmountError(value: unknown, total: number): string | null {
  const n = digits(value);
  if (n === null) return LICENSE_MESSAGES.notANumber;
  if (n < 1) return LICENSE_MESSAGES.greaterThanZero;
  if (n > total) return LICENSE_MESSAGES.overTotal(total);
  return null;
}

/** License threshold: digits, 0 to volume_total. */
export function thresholdError(value: unknown, total: number): string | null {
  const n = digits(value);
  if (n === null) return LICENSE_MESSAGES.notANumber;
  if (n < 0) return LICENSE_MESSAGES.zeroOrGreater;
  if (n > total) return LICENSE_MESSAGES.overTotal(total);
  return null;
}

/** New order: digits, 1 to volume_total. */
export function newOrderError(value: unknown, total: number): string | null {
  return orderAmountError(value, total);
}

/** Spec 001 §4: Update stays disabled until threshold, auto order or new order differs from the stored value. */
export function licenseChanged(stored: { threshold: number; auto_order: boolean; new_order: number }, form: { threshold: unknown; auto_order: boolean; new_order: unknown }): boolean {
  return String(form.threshold) !== String(stored.threshold) || form.auto_order !== stored.auto_order || String(form.new_order) !== String(stored.new_order);
}
