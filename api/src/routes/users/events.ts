import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

const HEARTBEAT_MS = 25_000;

/** GET /v1/users/events: server-sent events, one `event: users` per change (published by plugins/app/user-events.ts). */
const usersEvents: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/users/events',
    {
      config: { permission: 'usermanagement_read', tenant: 'none' },
      schema: { tags: ['users'], summary: 'Server-sent events: `event: users` with {type, users} whenever users change' },
    },
    async (req, reply) => {
      const res = reply.raw;
      // Subscribing first lets a Redis failure answer a plain error; no event can arrive before the headers below,
      // which are written in the same turn as the subscription resolves.
      const stop = await app.userEvents.subscribe({ onEvent: (message) => res.write(`event: users\ndata: ${message}\n\n`), onClose: () => end() });
      reply.hijack();
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      res.write(': connected\n\n');
      const beat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
      let ended = false;
      function end() {
        if (ended) return;
        ended = true;
        clearInterval(beat);
        stop();
        res.end();
      }
      req.raw.on('close', end);
    },
  );
};
export default usersEvents;
