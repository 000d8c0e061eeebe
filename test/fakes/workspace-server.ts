/**
 * In-process fake of the Workspace Reseller API (subscriptions list / changeSeats) and the Enterprise License
 * Manager (licenseAssignments listForProduct), as `googleapis` reaches them through `rootUrl`. Like Google:
 * a changeSeats gives the subscription a new subscriptionId, a body carrying licensedNumberOfSeats is a 400,
 * annual seats cannot go down, assignments come in pages of maxResults, and errors carry `errors[]`.
 * Requests are checked against Google's discovery documents (specs/reseller.v1.json, specs/licensing.v1.json).
 * Reseller takes a customer's domain or unique id; Licensing only the unique id (`C0…`): a domain there is
 * refused in the document's words. The documents do not say which error Google answers then: the fake's 400
 * `invalid` is a guess.
 */
import { createHash } from 'node:crypto';
import { discovery } from './discovery-validator.ts';
import { startGoogleFake, type GoogleFake, type Send } from './google-rest.ts';

export interface FakeSubscription {
  customerDomain: string;
  skuId: string;
  skuName: string;
  planName: 'ANNUAL_MONTHLY_PAY' | 'ANNUAL_YEARLY_PAY' | 'FLEXIBLE' | 'TRIAL';
  seats: number;
  status?: string;
  subscriptionId?: string;
}

export interface FakeWorkspace extends GoogleFake {
  rootUrl: string;
  subscriptions: Required<FakeSubscription>[];
  /** userId → skuId per domain. */
  assign(domain: string, skuId: string, users: number): void;
  /** The changeSeats bodies received. */
  seatChanges: { subscriptionId: string; body: Record<string, unknown> }[];
  /** The next changeSeats answers this status (e.g. 503). */
  failNextChangeSeats(status: number): void;
}

/** The unique id Google gives the customer of a domain (`C0` and eight characters, as the Admin console shows). */
export const customerIdOf = (domain: string) => `C0${createHash('sha1').update(domain).digest('hex').slice(0, 7)}`;

const discoveryError = (send: Send, code: number, message: string, reason: string) =>
  send(code, { error: { code, message, errors: [{ message, domain: 'global', reason }] } });

export async function startFakeWorkspace(): Promise<FakeWorkspace> {
  const subscriptions: Required<FakeSubscription>[] = [];
  const assignments = new Map<string, { skuId: string; userId: string }[]>();
  const seatChanges: FakeWorkspace['seatChanges'] = [];
  let nextId = 1000;
  let failChange = 0;

  const toSubscription = (s: Required<FakeSubscription>) => ({
    kind: 'reseller#subscription',
    customerId: customerIdOf(s.customerDomain),
    subscriptionId: s.subscriptionId,
    customerDomain: s.customerDomain,
    skuId: s.skuId,
    skuName: s.skuName,
    status: s.status,
    plan: { planName: s.planName, isCommitmentPlan: s.planName.startsWith('ANNUAL') },
    seats: s.planName.startsWith('ANNUAL')
      ? { kind: 'subscriptions#seats', numberOfSeats: s.seats, licensedNumberOfSeats: (assignments.get(s.customerDomain) ?? []).filter((a) => a.skuId === s.skuId).length }
      : { kind: 'subscriptions#seats', maximumNumberOfSeats: s.seats, licensedNumberOfSeats: (assignments.get(s.customerDomain) ?? []).filter((a) => a.skuId === s.skuId).length },
  });

  const fake = await startGoogleFake('workspace', [
    (req, send) => {
      if (req.method !== 'GET' || req.path !== '/apps/reseller/v1/subscriptions') return false;
      const customer = req.query.get('customerId') ?? '';
      const mine = subscriptions.filter((s) => s.customerDomain === customer || customerIdOf(s.customerDomain) === customer);
      if (mine.length === 0) return (discoveryError(send, 404, 'Not Found', 'notFound'), true);
      // One subscription per page, so every listing pages.
      const start = Number(req.query.get('pageToken') ?? 0);
      const page = mine.slice(start, start + 1).map(toSubscription);
      send(200, { kind: 'reseller#subscriptions', subscriptions: page, ...(start + 1 < mine.length ? { nextPageToken: String(start + 1) } : {}) });
      return true;
    },
    (req, send) => {
      const m = /^\/apps\/reseller\/v1\/customers\/([^/]+)\/subscriptions\/([^/]+)\/changeSeats$/.exec(req.path);
      if (req.method !== 'POST' || !m) return false;
      const sub = subscriptions.find((s) => (s.customerDomain === m[1] || customerIdOf(s.customerDomain) === m[1]) && s.subscriptionId === m[2]);
      if (!sub) return (discoveryError(send, 404, 'Not Found', 'notFound'), true);
      const body = req.body ?? {};
      seatChanges.push({ subscriptionId: m[2], body });
      if (failChange) {
        const status = failChange;
        failChange = 0;
        return (discoveryError(send, status, 'Backend Error', 'backendError'), true);
      }
      if ('licensedNumberOfSeats' in body) return (discoveryError(send, 400, 'Licensed number of seats field is read-only', 'invalid'), true);
      const annual = sub.planName.startsWith('ANNUAL');
      const wanted = Number(annual ? body.numberOfSeats : body.maximumNumberOfSeats);
      if (!Number.isInteger(wanted) || wanted < 0) return (discoveryError(send, 400, 'Invalid seats', 'invalid'), true);
      if (annual && wanted < sub.seats) return (discoveryError(send, 400, 'Seats of an annual plan cannot be reduced', 'invalid'), true);
      sub.seats = wanted;
      sub.subscriptionId = String(nextId++);
      send(200, toSubscription(sub));
      return true;
    },
    (req, send) => {
      const m = /^\/apps\/licensing\/v1\/product\/([^/]+)\/users$/.exec(req.path);
      if (req.method !== 'GET' || !m) return false;
      const customerId = req.query.get('customerId') ?? '';
      const domain = subscriptions.find((s) => customerIdOf(s.customerDomain) === customerId)?.customerDomain;
      if (domain === undefined) {
        // Not a customer's unique id (a domain, say): refused in the document's words, and recorded as a violation.
        try {
          discovery('licensing.v1.json').refuse(req.methodId, 'customerId', customerId);
        } catch (err) {
          return (discoveryError(send, 400, (err as Error).message, 'invalid'), true);
        }
      }
      const all = m[1] === 'Google-Apps' ? (assignments.get(domain!) ?? []) : [];
      const max = Math.min(Number(req.query.get('maxResults') ?? 100), 1000);
      const start = Number(req.query.get('pageToken') ?? 0);
      const items = all.slice(start, start + max).map((a) => ({
        kind: 'licensing#licenseAssignment', productId: 'Google-Apps', productName: 'Google Workspace', skuId: a.skuId, skuName: a.skuId, userId: a.userId,
      }));
      send(200, { kind: 'licensing#licenseAssignmentList', etag: 'e', items, ...(start + max < all.length ? { nextPageToken: String(start + max) } : {}) });
      return true;
    },
  ], { specs: ['reseller.v1.json', 'licensing.v1.json'] });

  return {
    ...fake,
    rootUrl: `http://127.0.0.1:${fake.endpoint.port}/`,
    subscriptions,
    seatChanges,
    assign(domain, skuId, users) {
      const list = assignments.get(domain) ?? [];
      for (let i = 0; i < users; i++) list.push({ skuId, userId: `user${list.length}@${domain}` });
      assignments.set(domain, list);
    },
    failNextChangeSeats: (status) => (failChange = status),
    close: fake.close,
  };
}

/** Adds a subscription to the fake (status ACTIVE, a fresh subscriptionId unless given). */
export function addSubscription(fake: FakeWorkspace, s: FakeSubscription): void {
  fake.subscriptions.push({ status: 'ACTIVE', subscriptionId: `sub-${fake.subscriptions.length + 1}`, ...s });
}
