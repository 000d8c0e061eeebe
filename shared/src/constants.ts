/** Constants from the specification (000 §9, 001 §9). */

/** Spec 001 §5: non-space text, an at sign, non-space text, a dot and more non-space text. */
export const EMAIL_PATTERN = '^\\S+@\\S+\\.\\S+$';
export const EMAIL_RE = new RegExp(EMAIL_PATTERN);

export const MIN_PASSWORD_LENGTH = 6;
export const TOKEN_REFRESH_MS = 3_540_000;
export const CLAIMS_RELOAD_MS = 6_000;
export const SNACKBAR_MS = 3_000;

export const CURRENCIES = ['EUR', 'GBP', 'USD', 'DKK'] as const;
export const DEFAULT_CURRENCY = 'EUR';
/** The spec's US/Pacific billing zone under its canonical IANA name (US/Pacific is a backward-compatibility link to it). */
export const BILLING_TIME_ZONE = 'America/Los_Angeles';

/** Spec 000 §8: the System Health password fetch fails (not initialised yet). */
export const MONITORING_NOT_IMPLEMENTED = 'Monitoring not implemented for this customer';

export const MESSAGES = {
  invalidLogin: 'Invalid username or password',
  unverifiedEmail: 'Please check your email to activate this account',
  providerEmailNotVerified: 'Email is not verified',
  required: 'This field is required',
  passwordTooShort: 'Must have at least 6 characters',
  initialising: 'Your user account is being initialised. You should be automatically taken into CommandCenter within one minute.',
  somethingWrong: 'Something went wrong',
  tryAgain: 'Please try again...',
  missingBillingAccount: 'Missing Billing Account. Please contact your system administrator.',
  contactAdmin: 'Please contact your system administrator',
} as const;
