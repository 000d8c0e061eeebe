/**
 * The billing account chosen in the header, kept across a reload or a link opened in another tab
 * (without it a reloaded /billing/alerts showed the first account's alerts instead of the second's
 * 'not implemented'). One entry for the selected customer only: selecting another customer resets the
 * account to its first (spec 001 §4), so coming back to a customer does not bring an old choice back.
 * The id is a wish like the store's; useBillingAccounts checks it against the customer's accounts.
 */
const KEY = 'cc.selection.billingAccount';

interface Remembered {
  customerId: string;
  billingAccountId: string | null;
}

function read(): Remembered | null {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(KEY) ?? 'null');
    if (raw && typeof raw === 'object') {
      const { customerId, billingAccountId } = raw as Record<string, unknown>;
      if (typeof customerId === 'string') return { customerId, billingAccountId: typeof billingAccountId === 'string' ? billingAccountId : null };
    }
  } catch {
    // An edited or unreadable entry is no choice.
  }
  return null;
}

function write(value: Remembered): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(value));
  } catch {
    // Storage blocked: the choice still holds for this page.
  }
}

/** The account remembered for this customer, or null. */
export function rememberedBillingAccount(customerId: string): string | null {
  const r = read();
  return r && r.customerId === customerId ? r.billingAccountId : null;
}

export function rememberBillingAccount(customerId: string, billingAccountId: string): void {
  write({ customerId, billingAccountId });
}

/** Another customer selected: its first account applies, whatever was chosen for this customer before. */
export function forgetBillingAccountUnlessFor(customerId: string): void {
  if (read()?.customerId !== customerId) write({ customerId, billingAccountId: null });
}
