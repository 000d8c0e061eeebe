import fp from 'fastify-plugin';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { QUEUE_NAMES, jobOptions, type QueueName, type QueuePayload, QUEUES } from '@cc/shared/queues.ts';
import { redisConnection } from '@cc/shared/redis.ts';

/** Producers: one BullMQ Queue per registry entry, all on one fail-fast connection. */
export interface Producers {
  queues: Record<QueueName, Queue>;
  redis: Redis;
  enqueue<Q extends QueueName>(queue: Q, data: QueuePayload<Q>): Promise<string>;
}

declare module 'fastify' {
  interface FastifyInstance {
    producers: Producers;
  }
}

export default fp(
  async (app) => {
    const redis = redisConnection(app.config.REDIS_URL, 'producer');
    redis.on('error', (err) => app.log.warn({ err }, 'redis connection error'));
    const queues = Object.fromEntries(
      QUEUE_NAMES.map((name) => [name, new Queue(name, { connection: redis, prefix: app.config.QUEUE_PREFIX })]),
    ) as Record<QueueName, Queue>;
    const producers: Producers = {
      queues,
      redis,
      async enqueue(queue, data) {
        const job = await queues[queue].add(QUEUES[queue].job, data, jobOptions(queue, data));
        return job.id ?? '';
      },
    };
    app.decorate('producers', producers);
    app.addHook('onClose', async () => {
      await Promise.all(Object.values(queues).map((q) => q.close()));
      redis.disconnect();
    });
  },
  { name: 'queues', dependencies: ['config'] },
);
