import type { ComponentType } from 'react';
import type { Role } from '@cc/shared/permissions.ts';
import type { CustomerDocument } from '@cc/shared/schemas/customers.ts';

/**
 * The types a routed page needs, apart from the route table itself: pages import these, the table
 * (routes.ts) imports the pages, so keeping them here keeps the import graph one-way.
 */

/** What a gate may look at: the user's claims and the selected customer's document. */
export interface GateContext {
  perms: readonly string[];
  role: Role;
  admin: boolean;
  /** null while unknown or unavailable: every feature counts as off. */
  customer: CustomerDocument | null;
}

export type Gate = (ctx: GateContext) => boolean;

/** Props every routed page receives. */
export interface PageProps {
  route: AppRoute;
  params: Record<string, string | undefined>;
}

export interface AppRoute {
  /** wouter pattern, as in spec 001 §2.1. */
  path: string;
  /** Heading and document title. */
  title: string;
  /** Who may open the route (spec 001 §2.1); failing it shows "You do not have access to this page". */
  gate: Gate;
  /**
   * The customer feature behind the screen. Off: the screen says it is disabled for the customer
   * (spec 000 §2 'for {customer} is disabled', 001 §2.11 'Playbook for {customer} is disabled').
   */
  feature?: { on: Gate; disabledText: (customerName: string) => string };
  /** Management pages hide the customer and billing account pickers (spec 001 §2.2). */
  management?: boolean;
  /** The screen; absent while it is not built yet (a "Not available yet" page shows). */
  page?: ComponentType<PageProps>;
}
