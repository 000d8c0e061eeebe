/**
 * Port: a customer's Google Workspace seats. `real` asks the Reseller API (subscriptions, seats) and the
 * Enterprise License Manager (assignments) through `googleapis` (shared/src/adapters/workspace/real.ts); `local` keeps a
 * tenant per domain in PostgreSQL whose usage moves day by day (shared/src/adapters/workspace/local.ts).
 *
 * A domain is named by its primary domain name (both APIs take it as customerId) and a subscription by its SKU:
 * Google's subscriptionId changes when a subscription is updated, so nothing here keys on it.
 */

export type WorkspacePlan = 'ANNUAL_MONTHLY_PAY' | 'ANNUAL_YEARLY_PAY' | 'FLEXIBLE' | 'TRIAL';

export interface WorkspaceSeats {
  sku_id: string;
  sku_name: string;
  plan: WorkspacePlan;
  /** Seats paid for: numberOfSeats on annual plans, maximumNumberOfSeats on flexible and trial ones. */
  total: number;
  /** Licenses assigned to users. */
  used: number;
}

/** What went wrong at the provider. `transient` (429, 5xx, network) is worth retrying as it is; the rest needs a person. */
export class WorkspaceError extends Error {
  constructor(
    message: string,
    readonly transient: boolean,
  ) {
    super(message);
    this.name = 'WorkspaceError';
  }
}

export interface Workspace {
  readonly name: 'google' | 'local';
  /** Every active subscription of the domain with its seats; a domain unknown to the provider is a WorkspaceError. */
  listSeats(domain: string): Promise<WorkspaceSeats[]>;
  /**
   * Raises the SKU's subscription to `target` seats (an absolute number, so repeating the call adds nothing).
   * Already at or above `target`: no call, the seats as they are. Seats of an annual plan are never reduced.
   */
  ensureSeats(domain: string, skuId: string, target: number): Promise<WorkspaceSeats>;
}

export const volumeAvailable = (s: Pick<WorkspaceSeats, 'total' | 'used'>) => s.total - s.used;
