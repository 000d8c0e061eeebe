/**
 * Real Workspace adapter: the Reseller API (subscriptions, changeSeats) and the Enterprise License Manager API
 * (license assignments) through `googleapis` (`@googleapis/reseller` and `@googleapis/licensing` are not published;
 * the per-API modules of `googleapis` load only what they need). Auth: a service account with domain-wide
 * delegation impersonating a reseller admin (scopes apps.order and apps.licensing).
 * Docs: developers.google.com/workspace/admin/reseller/reference/rest/v1/subscriptions (list, changeSeats),
 * developers.google.com/admin-sdk/licensing/reference/rest/v1/licenseAssignments/listForProduct.
 */
import { auth as googleAuth, reseller, type reseller_v1 } from 'googleapis/build/src/apis/reseller/index.js';
import { licensing } from 'googleapis/build/src/apis/licensing/index.js';
import { WorkspaceError, type Workspace, type WorkspacePlan, type WorkspaceSeats } from '../../ports/workspace.ts';

export const WORKSPACE_SCOPES = ['https://www.googleapis.com/auth/apps.order', 'https://www.googleapis.com/auth/apps.licensing'];
/** Workspace licenses are assigned under this product; assignments of other products are not counted. */
export const WORKSPACE_PRODUCT = 'Google-Apps';

export interface GoogleWorkspaceOptions {
  /** In tests an OAuth2Client holding a token; otherwise built from keyFile + subject. */
  auth?: reseller_v1.Options['auth'];
  keyFile?: string;
  /** The reseller admin the service account acts as (domain-wide delegation). */
  subject?: string;
  /** Both APIs' root (a fake in tests), e.g. http://127.0.0.1:PORT/. */
  rootUrl?: string;
}

const isAnnual = (plan: string) => plan.startsWith('ANNUAL');

/** 429, 5xx and answers that never came are worth a retry; anything else needs a person. */
function toWorkspaceError(what: string, err: unknown): WorkspaceError {
  if (err instanceof WorkspaceError) return err;
  const e = err as { status?: number; response?: { status?: number; data?: { error?: { message?: string } } }; message?: string };
  const status = e.status ?? e.response?.status;
  const message = e.response?.data?.error?.message ?? e.message ?? String(err);
  return new WorkspaceError(`${what}: ${message}`, status === undefined || status === 429 || status >= 500);
}

async function call<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw toWorkspaceError(what, err);
  }
}

export function googleWorkspace(opts: GoogleWorkspaceOptions): Workspace {
  const auth = opts.auth ?? new googleAuth.JWT({ keyFile: opts.keyFile, scopes: WORKSPACE_SCOPES, subject: opts.subject });
  // A fresh options object per API: the client deletes `version` from the one it is given.
  const options = () => ({ version: 'v1' as const, auth, ...(opts.rootUrl ? { rootUrl: opts.rootUrl } : {}) });
  const subs = reseller(options()).subscriptions;
  const assignments = licensing(options()).licenseAssignments;

  async function activeSubscriptions(domain: string): Promise<reseller_v1.Schema$Subscription[]> {
    const out: reseller_v1.Schema$Subscription[] = [];
    let pageToken: string | undefined;
    do {
      const { data } = await call('subscriptions.list', () => subs.list({ customerId: domain, maxResults: 100, pageToken }));
      out.push(...(data.subscriptions ?? []).filter((s) => s.status === 'ACTIVE'));
      pageToken = data.nextPageToken ?? undefined;
    } while (pageToken);
    return out;
  }

  /**
   * Licensing takes the customer's unique id (`C0…`), not the domain Reseller accepts: it comes from the
   * domain's subscriptions, which all carry it.
   */
  function customerIdOf(domain: string, list: reseller_v1.Schema$Subscription[]): string {
    const id = list.find((s) => s.customerId)?.customerId;
    if (!id) throw new WorkspaceError(`Domain ${domain} has no subscription naming its customer id`, false);
    return id;
  }

  async function usedBySku(customerId: string): Promise<Map<string, number>> {
    const used = new Map<string, number>();
    let pageToken: string | undefined;
    do {
      const { data } = await call('licenseAssignments.listForProduct', () =>
        assignments.listForProduct({ productId: WORKSPACE_PRODUCT, customerId, maxResults: 1000, pageToken }),
      );
      for (const a of data.items ?? []) if (a.skuId) used.set(a.skuId, (used.get(a.skuId) ?? 0) + 1);
      pageToken = data.nextPageToken ?? undefined;
    } while (pageToken);
    return used;
  }

  const totalOf = (s: reseller_v1.Schema$Subscription) =>
    (isAnnual(s.plan?.planName ?? '') ? s.seats?.numberOfSeats : s.seats?.maximumNumberOfSeats) ?? 0;

  const seatsOf = (s: reseller_v1.Schema$Subscription, used: Map<string, number>): WorkspaceSeats => ({
    sku_id: s.skuId ?? '',
    sku_name: s.skuName ?? s.skuId ?? '',
    plan: (s.plan?.planName ?? 'FLEXIBLE') as WorkspacePlan,
    total: totalOf(s),
    used: used.get(s.skuId ?? '') ?? 0,
  });

  return {
    name: 'google',
    async listSeats(domain) {
      const list = await activeSubscriptions(domain);
      if (list.length === 0) return [];
      const used = await usedBySku(customerIdOf(domain, list));
      return list.map((s) => seatsOf(s, used));
    },
    async ensureSeats(domain, skuId, target) {
      // Looked up by SKU every time: the subscriptionId of an earlier look may be stale after any update.
      const sub = (await activeSubscriptions(domain)).find((s) => s.skuId === skuId);
      if (!sub?.subscriptionId) throw new WorkspaceError(`Domain ${domain} has no active subscription for SKU ${skuId}`, false);
      const annual = isAnnual(sub.plan?.planName ?? '');
      let current = sub;
      if (totalOf(sub) < target) {
        // Only the writable field of the plan: licensedNumberOfSeats is read-only and a body carrying it is refused.
        const requestBody: reseller_v1.Schema$Seats = annual ? { kind: 'subscriptions#seats', numberOfSeats: target } : { kind: 'subscriptions#seats', maximumNumberOfSeats: target };
        const { data } = await call('subscriptions.changeSeats', () =>
          subs.changeSeats({ customerId: domain, subscriptionId: sub.subscriptionId!, requestBody }),
        );
        current = data;
      }
      return seatsOf(current, await usedBySku(customerIdOf(domain, [current, sub])));
    },
  };
}
