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
