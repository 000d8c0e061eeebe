import fp from 'fastify-plugin';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';

export const BULL_BOARD_PATH = '/ops/queues';

/**
 * bull-board's page links Google Fonts (IBM Plex). The operator's browser would ask Google on every visit and
 * the page would wait on it offline; its CSS falls back to the system sans-serif font. bull-board has no option
 * for it (uiConfig sets title, logo and favicons only), so the tag is taken out of the HTML it renders.
 */
const GOOGLE_FONTS_LINK = /<link\b[^>]*\bhref="https:\/\/fonts\.(?:googleapis|gstatic)\.com\/[^"]*"[^>]*>\s*/g;

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
    // Encapsulated, so the onSend hook sees only bull-board's own answers.
    await app.register(
      async (board) => {
        board.addHook('onSend', async (_req, reply, payload) => {
          const type = reply.getHeader('content-type');
          if (typeof payload !== 'string' || typeof type !== 'string' || !type.startsWith('text/html')) return payload;
          return payload.replace(GOOGLE_FONTS_LINK, '');
        });
        await board.register(serverAdapter.registerPlugin());
      },
      { prefix: BULL_BOARD_PATH },
    );
  },
  { name: 'bull-board', dependencies: ['queues', 'route-registry'] },
);
