import fp from 'fastify-plugin';
import { createPool, type Pool } from '@cc/shared/db/pool.ts';

declare module 'fastify' {
  interface FastifyInstance {
    pg: Pool;
  }
}

export default fp(
  async (app) => {
    const pool = createPool(app.config.DATABASE_URL);
    app.decorate('pg', pool);
    app.addHook('onClose', async () => pool.end());
  },
  { name: 'pg', dependencies: ['config'] },
);
