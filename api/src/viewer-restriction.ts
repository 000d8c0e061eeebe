/**
 * A customerViewer's restriction on one customer (spec 000 §1 "may be limited to a project-label filter", 001 §6),
 * the same for every answer that carries spend, anomalies, alerts or projects: their `viewer_filter` rows for the
 * customer, read once per access epoch (a change to `viewer_filter` moves it, migration 060). A viewer without a
 * filter on the customer is refused with the dashboard's own sentence, and an answer that can only be whole (an
 * invoice, Grafana's dashboards) is refused to every viewer. docs/decisions.md, "A viewer's filter".
 */
import type { FastifyInstance } from 'fastify';
import { viewerFilters, type LabelFilter } from '@cc/shared/db/billing-query.ts';
import type { AuthUser } from './plugins/app/auth.ts';
import { errors } from './errors.ts';

/** Spec 000 §2: "customerViewer with no filter matching the selected customer". */
export const VIEWER_WITHOUT_FILTER = 'Please contact your system administrator';

export const isViewer = (user: AuthUser | null | undefined): user is AuthUser => user?.role === 'customerViewer' && !user.admin;

/** null: unrestricted; a list: the viewer's filters on this customer (never empty: none answers 403). */
export async function viewerRestriction(app: FastifyInstance, customerId: string, user: AuthUser | null | undefined): Promise<LabelFilter[] | null> {
  if (!isViewer(user)) return null;
  const filters = await app.access.remember(`viewer:${customerId}:${user.email}`, user.epoch, () => viewerFilters(app.pg, customerId, user.email));
  if (filters.length === 0) throw new errors.forbidden(VIEWER_WITHOUT_FILTER);
  return filters;
}

/**
 * A viewer's billing account is the customer's first (spec 001 §9: viewers apply only to the first billing account;
 * the picker is hidden for him): another is answered as an account not his.
 */
export function viewerAccount(filters: LabelFilter[] | null, accounts: readonly string[], asked: string): void {
  if (filters !== null && asked !== accounts[0]) throw new errors.notFound('Billing account not found');
}

/** For answers about the customer's whole estate, which no project-label filter can narrow. */
export function refuseViewer(user: AuthUser | null | undefined, detail: string): void {
  if (isViewer(user)) throw new errors.forbidden(detail);
}
