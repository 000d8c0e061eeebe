import fp from 'fastify-plugin';
import type { Config } from '@cc/shared/config.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
  }
}

export default fp<{ config: Config }>(async (app, opts) => app.decorate('config', opts.config), { name: 'config' });
