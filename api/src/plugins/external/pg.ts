import fp from 'fastify-plugin';
import { createPool, readPools, type Pool, type ReadPools } from '@cc/shared/db/pool.ts';

declare module 'fastify' {
  interface FastifyInstance {
    pg: Pool;
    /** The read-only routes' database: the replica of DATABASE_READ_URL when fresh enough, else `pg` (pool.ts). */
    pgRead: ReadPools;
  }
}

export default fp(
  async (app) => {
    // Limits so a request never waits on a runaway statement and a dead api's statements stop (docs/operations.md).
    const pool = createPool(app.config.DATABASE_URL, 10, {
      statementTimeoutMs: app.config.DB_STATEMENT_TIMEOUT_MS,
      idleInTransactionMs: app.config.DB_IDLE_IN_TRANSACTION_MS,
      connectionCheckMs: app.config.DB_CONNECTION_CHECK_MS,
    });
    app.decorate('pg', pool);
    const read = readPools(pool, app.config.DATABASE_READ_URL, {
      waitMs: app.config.DATABASE_READ_WAIT_MS,
      limits: { statementTimeoutMs: app.config.DB_STATEMENT_TIMEOUT_MS, connectionCheckMs: app.config.DB_CONNECTION_CHECK_MS },
    });
    app.decorate('pgRead', read);
    app.addHook('onClose', async () => {
      await read.close();
      await pool.end();
    });
  },
  { name: 'pg', dependencies: ['config'] },
);
