import fp from 'fastify-plugin';
import type pg from 'pg';
import { createProducer, type Enqueue, type Producer } from '@cc/shared/producer.ts';
import { durableEnqueue, enqueueInTransaction, publishAfterCommit } from '@cc/shared/outbox.ts';
import { withTransaction } from '@cc/shared/db/pool.ts';

export interface OutboxTransactions {
  /**
   * Runs `fn` in one transaction whose `enqueue` writes outbox rows in that same transaction: the route's domain
   * rows and the work they owe commit together or not at all. After COMMIT the rows are queued at once
   * when Redis answers; otherwise a worker's reconciler publishes them when it returns. No 503 for Redis here:
   * the work is accepted durably.
   */
  transaction<T>(fn: (tx: pg.PoolClient, enqueue: Enqueue) => Promise<T>): Promise<T>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The registry's producer (shared/src/producer.ts): the queues for bull-board and metrics, its Redis, and
     * `enqueue`, which records the command in the PostgreSQL outbox before BullMQ gets it (shared/src/outbox.ts) and
     * refuses with 503 while Redis is away, so work answered 202 is never lost with Redis.
     */
    producers: Producer;
    outbox: OutboxTransactions;
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
    app.decorate('outbox', {
      async transaction(fn) {
        let recorded: string[] = [];
        const result = await withTransaction(app.pg, (tx) => {
          const w = enqueueInTransaction(tx);
          recorded = w.recorded;
          return fn(tx, w.enqueue);
        });
        await publishAfterCommit(enqueue, recorded, (err) => app.log.warn({ err, outbox: recorded }, 'outbox rows left to the reconciler'));
        return result;
      },
    } satisfies OutboxTransactions);
    app.addHook('onClose', () => producer.close());
  },
  { name: 'queues', dependencies: ['config', 'pg'] },
);
