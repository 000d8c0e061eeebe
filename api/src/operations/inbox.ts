/**
 * Gathers the operations inbox: the open items of every customer (shared/src/db/operations.ts), the license
 * syncs that failed in the queue (the only kind no table records), and the admin's own "last looked" time.
 *
 * The statement spans every customer (~0.5 s with 500 on a loaded machine), so its answer (and the spend
 * overview's, seconds) is kept in process and served while a fresher one is computed in the background once it is
 * FRESH_MS (SPEND_FRESH_MS) old; any successful write through the api (an approval, a rejection, a retry…) drops
 * them, so an admin sees the effect of a decision at once. What jobs change (an ingest failing, a sync recovering)
 * shows within FRESH_MS. docs/decisions-operations.md.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { billingToday } from '@cc/shared/time.ts';
import { countByKind, findAnomaliesSeenAt, listInbox, type FailedLicenseSync } from '@cc/shared/db/operations.ts';
import type { InboxItem, InboxKind, SpendAnswer } from '@cc/shared/schemas/operations.ts';
import { spendOverview } from './spend.ts';

/** A billing account whose latest usage day is more than this many days old is listed as stale. */
export const STALE_BILLING_DAYS = 2;
/** Failed license syncs read from the queue: the newest; older ones are long superseded by a later sync. */
const LICENSE_FAILURES_READ = 200;
/** An answer older than this is still served, while the next one is computed. */
export const FRESH_MS = 5_000;
/** The spend overview's answer is recomputed in the background once it is this old. */
export const SPEND_FRESH_MS = 60_000;
/** Answers kept: one per "last looked" time in use (each admin's own, and the scrape's none). */
const MAX_KEPT = 50;

async function failedLicenseSyncs(app: FastifyInstance): Promise<FailedLicenseSync[]> {
  const jobs = await app.producers.queues.license.getFailed(0, LICENSE_FAILURES_READ - 1);
  return jobs
    .filter((j) => j && j.finishedOn)
    .map((j) => ({
      customer_id: (j.data as { customer_id?: string }).customer_id ?? null,
      failed_at: new Date(j.finishedOn!).toISOString(),
      reason: (j.failedReason ?? '').slice(0, 500),
    }));
}

async function computeInbox(app: FastifyInstance, seenAt: string | null): Promise<InboxItem[]> {
  const licenseSyncFailures = await failedLicenseSyncs(app);
  // through the replica once it has every write acknowledged before this computation began (docs/scaling.md)
  const items = await app.pgRead.fresh((db) =>
    listInbox(db, {
      today: billingToday(),
      anomaliesSeenAt: seenAt,
      targets: app.config.FIRST_RESPONSE_TARGETS,
      staleDays: STALE_BILLING_DAYS,
      licenseSyncFailures,
    }),
  );
  indexOf(items); // made here, in the background, not by the first page read of the answer
  return items;
}

interface Kept<T> {
  at: number;
  generation: number;
  value: Promise<T>;
  refreshing: boolean;
}

/**
 * Answers kept by key: computed on first read and after `invalidate`, served while older than `freshMs` as a fresher
 * one is computed in the background (one at a time per key), at most `max` keys.
 */
export class KeptAnswers<T> {
  private kept = new Map<string, Kept<T>>();
  private generation = 0;

  constructor(
    private readonly compute: (key: string) => Promise<T>,
    private readonly freshMs: number,
    private readonly onRefreshError: (err: unknown) => void,
    private readonly max = MAX_KEPT,
  ) {}

  private start(key: string): Kept<T> {
    const entry: Kept<T> = { at: Date.now(), generation: this.generation, value: this.compute(key), refreshing: false };
    // a failed computation is not kept: the next read tries again
    entry.value.catch(() => this.kept.get(key) === entry && this.kept.delete(key));
    if (this.kept.size >= this.max && !this.kept.has(key)) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(key, entry);
    return entry;
  }

  read(key: string): Promise<T> {
    const entry = this.kept.get(key);
    if (!entry || entry.generation !== this.generation) return this.start(key).value;
    if (Date.now() - entry.at > this.freshMs && !entry.refreshing) {
      entry.refreshing = true;
      const generation = this.generation;
      const next = this.compute(key);
      next.then(
        () => {
          if (this.kept.get(key) === entry && generation === this.generation) this.kept.set(key, { at: Date.now(), generation, value: next, refreshing: false });
        },
        (err: unknown) => {
          entry.refreshing = false;
          this.onRefreshError(err);
        },
      );
    }
    return entry.value;
  }

  invalidate(): void {
    this.generation += 1;
    this.kept.clear();
  }
}

export interface OperationsInbox {
  /** Every open item across customers, most urgent first, then newest. `seenAt`: the admin's last look at anomalies. */
  read(seenAt: string | null): Promise<InboxItem[]>;
  /** When the admin last marked the anomalies seen (null: never); kept as the answers are, dropped by any write. */
  seenAt(userId: string): Promise<string | null>;
  /** Every customer's spend (the overview's answer). */
  spend(): Promise<SpendAnswer>;
  /** Drops every kept answer (a write went through). */
  invalidate(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    operationsInbox: OperationsInbox;
  }
}

/** Registered before the routes, so its hook sees every route's writes. */
export const operationsInboxPlugin = fp(
  async (app) => {
    const warn = (what: string) => (err: unknown) => app.log.warn({ err }, `${what} refresh failed; the previous answer is served`);
    const inbox = new KeptAnswers((key) => computeInbox(app, key === '' ? null : key), FRESH_MS, warn('operations inbox'));
    // spend moves with ingests (nightly) and rates: a minute old is fresh enough, and the statement reads every day of every customer
    const spend = new KeptAnswers(() => app.pgRead.fresh((db) => spendOverview(db, billingToday(), app.config.PROVIDER_CURRENCY)), SPEND_FRESH_MS, warn('spend overview'));
    // one query less on every inbox read; "Mark anomalies seen" is a write, so this api instance drops it at once
    const seen = new KeptAnswers((userId) => findAnomaliesSeenAt(app.pg, userId), FRESH_MS, warn('anomalies seen'));
    app.decorate('operationsInbox', {
      read: (seenAt) => inbox.read(seenAt ?? ''),
      seenAt: (userId) => seen.read(userId),
      spend: () => spend.read(billingToday()),
      invalidate() {
        inbox.invalidate();
        seen.invalidate();
        spend.invalidate();
      },
    } satisfies OperationsInbox);
    // before the answer leaves: the caller's next read (the screen reloads right after a decision) finds it dropped
    app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'GET' && req.method !== 'HEAD' && reply.statusCode < 400) app.operationsInbox.invalidate();
      return payload;
    });
  },
  { name: 'operations-inbox', dependencies: ['pg', 'queues', 'config'] },
);

export interface InboxPage {
  items: InboxItem[];
  total: number;
  counts: Record<InboxKind, number>;
}

/** The items of one customer filter (or of all customers), with their counts per kind and, once asked, per kind. */
interface Scope {
  items: readonly InboxItem[];
  counts: Record<InboxKind, number>;
  byKind: Map<InboxKind, InboxItem[]> | null;
}

interface Indexed {
  all: Scope;
  byCustomer: Map<string, Scope>;
}

/**
 * Each kept answer's index, made once per answer rather than per request: with 500 customers an answer holds
 * thousands of items, and filtering and counting them on every page read was most of the route's own time.
 * Keyed by the answer's array, which a kept answer keeps until it is replaced (then the index goes with it).
 */
const indexes = new WeakMap<readonly InboxItem[], Indexed>();

function scopeOf(items: readonly InboxItem[]): Scope {
  return { items, counts: countByKind(items), byKind: null };
}

function indexOf(all: readonly InboxItem[]): Indexed {
  let index = indexes.get(all);
  if (index) return index;
  const grouped = new Map<string, InboxItem[]>();
  for (const item of all) {
    if (item.customer_id === null) continue;
    let list = grouped.get(item.customer_id);
    if (!list) grouped.set(item.customer_id, (list = []));
    list.push(item);
  }
  index = { all: scopeOf(all), byCustomer: new Map([...grouped].map(([id, items]) => [id, scopeOf(items)])) };
  indexes.set(all, index);
  return index;
}

function ofKind(scope: Scope, kind: InboxKind): readonly InboxItem[] {
  if (!scope.byKind) {
    scope.byKind = new Map();
    for (const item of scope.items) {
      let list = scope.byKind.get(item.kind);
      if (!list) scope.byKind.set(item.kind, (list = []));
      list.push(item);
    }
  }
  return scope.byKind.get(kind) ?? [];
}

const NO_ITEMS: Scope = scopeOf([]);

/** One page of the items of a kind and customer; counts per kind over the customer filter alone (the filter's badges). */
export function pageOf(all: readonly InboxItem[], q: { kind?: InboxKind; for_customer?: string; offset: number; limit: number }): InboxPage {
  const index = indexOf(all);
  const scope = q.for_customer === undefined ? index.all : (index.byCustomer.get(q.for_customer) ?? NO_ITEMS);
  const matching = q.kind === undefined ? scope.items : ofKind(scope, q.kind);
  return { items: matching.slice(q.offset, q.offset + q.limit), total: matching.length, counts: { ...scope.counts } };
}
