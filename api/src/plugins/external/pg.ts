import fp from 'fastify-plugin';
import { createPool, type Pool } from '@cc/shared/db/pool.ts';

declare module 'fastify' {
  interface FastifyInstance {
    pg: Pool;
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
    app.addHook('onClose', async () => pool.end());
  },
  { name: 'pg', dependencies: ['config'] },
);
