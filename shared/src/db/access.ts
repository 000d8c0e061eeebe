/**
 * The committed versions the api keeps in process instead of reading per request (decisions.md "Hot path"):
 * `access_version` (users, claims, grants, viewer filters, customers; migration 060) and each billing account's
 * `billing_data_version` (migration 040). Both are bumped by triggers in the writing transaction and announced by
 * PostgreSQL at commit (NOTIFY), whichever process wrote them.
 */
import pg from 'pg';
import type { Queryable } from './pool.ts';

export const ACCESS_CHANNEL = 'cc_access_version';
export const BILLING_DATA_CHANNEL = 'cc_billing_data_version';

export async function readAccessVersion(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ version: string }>('SELECT version::text FROM access_version WHERE id = 1');
  return rows[0]?.version ?? '0';
}

export interface Signals {
  /** An access change committed (payload: the new access version). */
  onAccess(version: string): void;
  /** A billing account's data committed at `version`. */
  onBillingData(billingAccountId: string, version: string): void;
  /** LISTEN is (again) in place: whatever was announced before may have been missed. */
  onListening(): void;
  /** The connection is lost: announcements are missed until `onListening`. */
  onLost(err: unknown): void;
}

/**
 * Listens on a connection of its own (a pooled one cannot hold LISTEN), reconnecting after a second when lost.
 * Returns the function that stops listening.
 */
export function listenForSignals(connectionString: string, signals: Signals): () => Promise<void> {
  let client: pg.Client | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;

  const retry = (err: unknown) => {
    signals.onLost(err);
    const lost = client;
    client = null;
    lost?.end().catch(() => undefined);
    if (!stopped && !timer) timer = setTimeout(() => ((timer = null), void connect()), 1000);
  };

  async function connect(): Promise<void> {
    const c = new pg.Client({ connectionString, application_name: 'cc-api-signals' });
    client = c;
    c.on('error', (err) => client === c && retry(err));
    c.on('end', () => client === c && !stopped && retry(new Error('signals connection ended')));
    c.on('notification', (n) => {
      if (n.channel === ACCESS_CHANNEL) signals.onAccess(n.payload ?? '');
      else if (n.channel === BILLING_DATA_CHANNEL && n.payload) {
        const space = n.payload.indexOf(' ');
        signals.onBillingData(n.payload.slice(space + 1), n.payload.slice(0, space));
      }
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${ACCESS_CHANNEL}; LISTEN ${BILLING_DATA_CHANNEL}`);
      if (stopped) return void (await c.end());
      if (client === c) signals.onListening();
    } catch (err) {
      if (client === c) retry(err);
    }
  }
  void connect();

  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    const c = client;
    client = null;
    await c?.end().catch(() => undefined);
  };
}
