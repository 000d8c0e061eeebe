import fp from 'fastify-plugin';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';

export const BULL_BOARD_PATH = '/ops/queues';

/** Queue health for operators at /ops/queues; admin only through the route policy's prefix table. */
export default fp(
  async (app) => {
    const serverAdapter = new FastifyAdapter();
    serverAdapter.setBasePath(BULL_BOARD_PATH);
    createBullBoard({
      queues: Object.values(app.producers.queues).map((q) => new BullMQAdapter(q)),
      serverAdapter,
      options: { uiConfig: { boardTitle: 'CommandCenter queues' } },
    });
    await app.register(serverAdapter.registerPlugin(), { prefix: BULL_BOARD_PATH });
  },
  { name: 'bull-board', dependencies: ['queues', 'route-registry'] },
);
