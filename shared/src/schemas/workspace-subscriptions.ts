/** Wire schema of a domain's Workspace subscriptions, the SKUs a license can be created for (Create License's choice). */
import { Type, type Static } from '@sinclair/typebox';

export const WorkspaceSubscription = Type.Object({
  sku_id: Type.String(),
  sku_name: Type.String(),
  plan: Type.String(),
  /** Seats paid for, and those not assigned to a user: a license's volume_total and volume_available. */
  volume_total: Type.Integer(),
  volume_available: Type.Integer(),
  /** A license for this SKU exists already (creating another answers 409). */
  licensed: Type.Boolean(),
});
export type WorkspaceSubscription = Static<typeof WorkspaceSubscription>;
export const WorkspaceSubscriptionList = Type.Array(WorkspaceSubscription);
