import fp from 'fastify-plugin';
import { createProducer, type Producer } from '@cc/shared/producer.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The registry's producer (shared/src/producer.ts): enqueue, the queues for bull-board and metrics, its Redis. */
    producers: Producer;
  }
}

export default fp(
  async (app) => {
    const producer = createProducer(app.config.REDIS_URL, app.config.QUEUE_PREFIX, (err) => app.log.warn({ err }, 'redis connection error'));
    app.decorate('producers', producer);
    app.addHook('onClose', () => producer.close());
  },
  { name: 'queues', dependencies: ['config'] },
);
