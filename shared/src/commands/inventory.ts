import { Type, type Static } from '@sinclair/typebox';

/**
 * One inventory sync. With customer_id: that customer's sync (the admin's "run now", or one of the nightly
 * fan-out). Without: the nightly fan-out, which enqueues one sync per customer with the inventory flag (and a
 * service account when the source is real). `day` gives the nightly jobs their id, so each night runs once.
 */
export const InventorySyncCommand = Type.Object({
  customer_id: Type.Optional(Type.String({ minLength: 1, pattern: '^[^:]+$' })),
  day: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })),
});
export type InventorySyncCommand = Static<typeof InventorySyncCommand>;

/**
 * Sends the recommendation state changes tickets ask for: markClaimed once a claimed recommendation's ticket has
 * a key, markSucceeded once that ticket is Resolved or Closed. Of one customer, or of all (the periodic sweep).
 */
export const InventoryClaimsCommand = Type.Object({
  customer_id: Type.Optional(Type.String({ minLength: 1, pattern: '^[^:]+$' })),
});
export type InventoryClaimsCommand = Static<typeof InventoryClaimsCommand>;

// Quota (Recommender's 100 reads a day) comes back in hours, not seconds: 15 min, 30 min, 1 h, 2 h.
const QUOTA_BACKOFF = { attempts: 5, backoff: { type: 'exponential', delay: 15 * 60_000, jitter: 0.2 } } as const;
export const INVENTORY_SYNC_OPTIONS = QUOTA_BACKOFF;

export const inventorySyncJobId = (d: InventorySyncCommand): string =>
  `inventory-sync-${d.customer_id ?? 'all'}-${d.day ?? `now-${Date.now()}`}`;

export const inventoryClaimsJobId = (d: InventoryClaimsCommand): string => `inventory-claims-${d.customer_id ?? 'all'}-${Date.now()}`;
