import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import type { UsersChangedEvent } from '@cc/shared/schemas/admin.ts';

/** Redis channel of user changes; prefixed like the queues so test runs and deployments never cross. */
const channel = (app: FastifyInstance) => `${app.config.QUEUE_PREFIX}:admin:users-changed`;

/**
 * Tells every api process that users changed, so each admin's open user list refreshes (spec: users with
 * live updates). A lost event only delays a refresh: it never fails the change that caused it.
 */
export async function publishUsersChanged(app: FastifyInstance, event: UsersChangedEvent): Promise<void> {
  if (event.users.length === 0) return;
  await app.producers.redis.publish(channel(app), JSON.stringify(event)).catch((err: unknown) => {
    app.log.warn({ err }, 'could not publish users-changed');
  });
}

const HEARTBEAT_MS = 25_000;

/**
 * GET /v1/users/events: server-sent events, one `event: users` per change. One Redis subscriber per
 * process, opened with the first stream, fans out to every open stream.
 */
const usersEvents: FastifyPluginAsyncTypebox = async (app) => {
  const hub = new EventEmitter();
  hub.setMaxListeners(0);
  let subscriber: Redis | null = null;

  async function subscribe(): Promise<void> {
    if (subscriber) return;
    subscriber = new Redis(app.config.REDIS_URL, { maxRetriesPerRequest: null });
    subscriber.on('error', (err) => app.log.warn({ err }, 'users-changed subscriber error'));
    subscriber.on('message', (_channel: string, message: string) => hub.emit('users', message));
    await subscriber.subscribe(channel(app));
  }
  app.addHook('onClose', async () => {
    hub.emit('close');
    subscriber?.disconnect();
  });

  app.get(
    '/v1/users/events',
    {
      config: { permission: 'usermanagement_read', tenant: 'none' },
      schema: { tags: ['users'], summary: 'Server-sent events: `event: users` with {type, users} whenever users change' },
    },
    async (req, reply) => {
      await subscribe();
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      res.write(': connected\n\n');
      const send = (message: string) => res.write(`event: users\ndata: ${message}\n\n`);
      const beat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        clearInterval(beat);
        hub.off('users', send);
        hub.off('close', end);
        res.end();
      };
      hub.on('users', send);
      hub.on('close', end);
      req.raw.on('close', end);
    },
  );
};
export default usersEvents;
