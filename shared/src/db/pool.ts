import pg from 'pg';

export type Pool = pg.Pool;
export type Queryable = pg.Pool | pg.PoolClient;

// numeric and bigint stay strings: money must never pass through a JavaScript float.
pg.types.setTypeParser(pg.types.builtins.DATE, (v: string) => v);

/** Server-side limits of a pool's sessions (docs/operations.md, "Faults"); 0 leaves PostgreSQL's default. */
export interface SessionLimits {
  /** statement_timeout: the api's requests never wait on a statement longer than this. */
  statementTimeoutMs?: number;
  /** idle_in_transaction_session_timeout: a transaction its process forgot (a hung or dead client) ends and frees its locks. */
  idleInTransactionMs?: number;
  /** client_connection_check_interval (PostgreSQL 14+): a running statement stops this soon after its client died. */
  connectionCheckMs?: number;
}

export function createPool(connectionString: string, max = 10, limits: SessionLimits = {}): pg.Pool {
  const settings = [
    limits.connectionCheckMs ? `-c client_connection_check_interval=${limits.connectionCheckMs}` : '',
    limits.idleInTransactionMs ? `-c idle_in_transaction_session_timeout=${limits.idleInTransactionMs}` : '',
    limits.statementTimeoutMs ? `-c statement_timeout=${limits.statementTimeoutMs}` : '',
  ].filter(Boolean);
  const pool = new pg.Pool({ connectionString, max, ...(settings.length ? { options: settings.join(' ') } : {}) });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  return pool;
}

/**
 * Runs `fn` in one transaction; the caller owns it and passes the client down. A checked-out client whose
 * connection dies emits 'error': unheard, that event would end the process. The failing query rejects
 * anyway, so the listener only remembers not to hand the dead connection back to the pool.
 */
export async function withTransaction<T>(pool: pg.Pool, fn: (tx: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  const onError = () => {
    broken = true;
  };
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {
      broken = true;
    });
    throw err;
  } finally {
    // A broken client keeps the listener: its socket may still report the end after it left the pool.
    if (!broken) client.off('error', onError);
    client.release(broken);
  }
}

/**
 * Runs `fn` on one checked-out connection (session-level locks, temp tables), with the same 'error' listener as
 * `withTransaction`: a connection cut under it fails the call, never the process, and is not reused.
 */
export async function withClient<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  const onError = () => {
    broken = true;
  };
  client.on('error', onError);
  try {
    return await fn(client);
  } catch (err) {
    if (err && typeof err === 'object' && /Connection terminated|connection error/i.test(String((err as Error).message))) broken = true;
    throw err;
  } finally {
    if (!broken) client.off('error', onError);
    client.release(broken);
  }
}

/**
 * Where the read-only routes read: a streaming replica (DATABASE_READ_URL) when it has replayed every write the
 * primary had committed when the read began, else the primary. Without a replica it is the primary, with no query
 * added.
 */
export interface ReadPools {
  /** Runs `fn` on the replica once it is as fresh as the primary was at the call, else (or if it fails there) on the primary. */
  fresh<T>(fn: (db: pg.Pool) => Promise<T>): Promise<T>;
  /** Where the last `fresh` read ran (for tests and the scale check). */
  readonly last: 'primary' | 'replica';
  close(): Promise<void>;
}

/** A standby cancels a query whose rows replay must remove (recovery conflict); the primary answers it instead. */
const REPLICA_TROUBLE = new Set(['40001', '57P01', '57P03', '08006', '08001', '08003']);

/**
 * The replica's pool and its freshness rule. Before a read, the primary's current WAL position is taken (one short
 * query); the replica is used once its replay position reaches it (polled every 5 ms up to `waitMs`). Everything
 * acknowledged before the read began is thus in the answer, whatever names it (an account's data version, the
 * exchange rates' counter, a setting); when the replica lags longer, the primary answers. LISTEN/NOTIFY and every
 * write stay on the primary: a standby has neither.
 */
export function readPools(primary: pg.Pool, replicaUrl: string, opts: { max?: number; waitMs: number; limits?: SessionLimits }): ReadPools {
  if (!replicaUrl) {
    return { fresh: (fn) => fn(primary), last: 'primary', close: async () => undefined };
  }
  const replica = createPool(replicaUrl, opts.max ?? 10, opts.limits);
  const state: { last: 'primary' | 'replica' } = { last: 'primary' };
  async function caughtUp(): Promise<boolean> {
    const { rows } = await primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
    const target = rows[0]!.lsn;
    const deadline = Date.now() + opts.waitMs;
    for (;;) {
      const { rows: r } = await replica.query<{ ok: boolean | null }>(
        // A replica promoted (or a primary named by mistake) is as fresh as itself.
        'SELECT CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() ELSE pg_current_wal_lsn() END >= $1::pg_lsn AS ok',
        [target],
      );
      if (r[0]?.ok) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
  return {
    async fresh(fn) {
      let ready = false;
      try {
        ready = await caughtUp();
      } catch (err) {
        if (!isReplicaTrouble(err)) throw err;
      }
      if (!ready) {
        state.last = 'primary';
        return fn(primary);
      }
      try {
        const answer = await fn(replica);
        state.last = 'replica';
        return answer;
      } catch (err) {
        if (!isReplicaTrouble(err)) throw err;
        state.last = 'primary';
        return fn(primary);
      }
    },
    get last() {
      return state.last;
    },
    close: () => replica.end(),
  };
}

function isReplicaTrouble(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const code = (err as { code?: string }).code;
  return (code !== undefined && (REPLICA_TROUBLE.has(code) || code.startsWith('08'))) || /ECONNREFUSED|Connection terminated|connection error/i.test(String((err as Error).message));
}
