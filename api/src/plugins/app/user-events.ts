import fp from 'fastify-plugin';
import { EventEmitter } from 'node:events';
import { createRedis, watchRedis, type RedisClient } from '@cc/shared/redis.ts';
import type { UsersChangedEvent } from '@cc/shared/schemas/users.ts';

/**
 * User changes announced to every api process, so each admin's open user list refreshes (spec: users with live
 * updates). A lost event only delays a refresh: publishing never fails the change that caused it.
 */
export interface UserEvents {
  publish(event: UsersChangedEvent): Promise<void>;
  /**
   * Calls `onEvent` with each event's JSON text, and `onClose` once when the server closes; returns the function
   * that stops both.
   */
  subscribe(listeners: { onEvent: (message: string) => void; onClose: () => void }): Promise<() => void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    userEvents: UserEvents;
  }
}

export default fp(
  async (app) => {
    // prefixed like the queues, so test runs and deployments never cross
    const channel = `${app.config.QUEUE_PREFIX}:admin:users-changed`;
    const hub = new EventEmitter();
    hub.setMaxListeners(0);
    // One Redis subscriber per process, opened with the first listener, fans out to all of them.
    let subscriber: RedisClient | null = null;

    async function open(): Promise<void> {
      if (subscriber) return;
      subscriber = createRedis(app.config.REDIS_URL, { maxRetriesPerRequest: null });
      // Connection failures are logged once per outage (shared/src/redis.ts); other errors here.
      watchRedis(subscriber, 'users-changed subscriber').on('error', (err) => app.log.warn({ err }, 'users-changed subscriber error'));
      subscriber.on('message', (_channel: string, message: string) => hub.emit('users', message));
      await subscriber.subscribe(channel);
    }

    const events: UserEvents = {
      async publish(event) {
        if (event.users.length === 0) return;
        await app.producers.redis.publish(channel, JSON.stringify(event)).catch((err: unknown) => {
          app.log.warn({ err }, 'could not publish users-changed');
        });
      },
      async subscribe({ onEvent, onClose }) {
        await open();
        hub.on('users', onEvent);
        hub.on('close', onClose);
        return () => {
          hub.off('users', onEvent);
          hub.off('close', onClose);
        };
      },
    };
    app.decorate('userEvents', events);
    app.addHook('onClose', async () => {
      hub.emit('close');
      subscriber?.disconnect();
    });
  },
  { name: 'user-events', dependencies: ['config', 'queues'] },
);
