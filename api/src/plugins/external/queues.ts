import fp from 'fastify-plugin';
import { createProducer, type Producer } from '@cc/shared/producer.ts';
import { durableEnqueue } from '@cc/shared/outbox.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The registry's producer (shared/src/producer.ts): the queues for bull-board and metrics, its Redis, and
     * `enqueue`, which records the command in the PostgreSQL outbox before BullMQ gets it (shared/src/outbox.ts) and
     * refuses with 503 while Redis is away, so work answered 202 is never lost with Redis.
     */
    producers: Producer;
  }
}

export default fp(
  async (app) => {
    const producer = createProducer(app.config.REDIS_URL, app.config.QUEUE_PREFIX, (err) => app.log.warn({ err }, 'redis connection error'));
    const enqueue = durableEnqueue(app.pg, producer, {
      requireRedis: true,
      onPublishError: (err, row) => app.log.warn({ err, ...row }, 'enqueue recorded; the workers will publish it'),
    });
    app.decorate('producers', { ...producer, enqueue });
    app.addHook('onClose', () => producer.close());
  },
  { name: 'queues', dependencies: ['config', 'pg'] },
);
