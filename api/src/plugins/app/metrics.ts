import fp from 'fastify-plugin';
import { createHash, timingSafeEqual } from 'node:crypto';
import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { QUEUE_NAMES } from '@cc/shared/queues.ts';
import { errors } from '../../errors.ts';

// Compared as digests: equal lengths, constant time.
const digest = (s: string) => createHash('sha256').update(s).digest();
const safeEqual = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

declare module 'fastify' {
  interface FastifyInstance {
    /** The registry `/metrics` answers from: areas add their own gauges to it (operations inbox counts). */
    metricsRegistry: Registry;
  }
}

const JOB_STATES = ['waiting', 'active', 'delayed', 'failed', 'completed', 'prioritized', 'waiting-children'] as const;

/**
 * Prometheus `/metrics` of the api: HTTP latency per route and queue depth per state (read from
 * Redis at scrape time, so it is right whichever process enqueued). Job duration and failures are
 * measured where jobs run, on the worker's own `/metrics` (WORKER_METRICS_PORT).
 */
export default fp(
  async (app) => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    app.decorate('metricsRegistry', registry);
    const latency = new Histogram({
      name: 'cc_http_request_duration_seconds',
      help: 'HTTP request latency',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    });
    new Gauge({
      name: 'cc_queue_jobs',
      help: 'Jobs per queue and state',
      labelNames: ['queue', 'state'],
      registers: [registry],
      async collect() {
        await Promise.all(
          QUEUE_NAMES.map(async (name) => {
            const counts = await app.producers.queues[name].getJobCounts(...JOB_STATES);
            for (const state of JOB_STATES) this.set({ queue: name, state }, counts[state] ?? 0);
          }),
        );
      },
    });

    new Gauge({
      name: 'cc_queue_oldest_waiting_seconds',
      help: 'Age of the oldest job waiting per queue (0 when none waits)',
      labelNames: ['queue'],
      registers: [registry],
      async collect() {
        const now = Date.now();
        await Promise.all(
          QUEUE_NAMES.map(async (name) => {
            // ascending: the first waiting job is the oldest
            const [oldest] = await app.producers.queues[name].getJobs(['wait'], 0, 0, true);
            this.set({ queue: name }, oldest ? Math.max(0, (now - oldest.timestamp) / 1000) : 0);
          }),
        );
      },
    });

    app.addHook('onResponse', async (req, reply) => {
      const route = req.routeOptions.url ?? 'unmatched';
      latency.observe({ method: req.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    });

    // Who may scrape (docs/operations.md): whoever sends METRICS_TOKEN as a Bearer token, or a signed-in
    // admin; without a METRICS_TOKEN, anyone outside production (a developer's Prometheus) and admins only in it.
    // The figures hold route names and queue depths, never a secret, but they map the estate and its load.
    const token = app.config.METRICS_TOKEN;
    const open = !token && app.config.NODE_ENV !== 'production';
    app.get('/metrics', { config: { permission: 'public', tenant: 'none' }, schema: { hide: true } }, async (req, reply) => {
      if (!open && !(token && safeEqual(req.headers.authorization ?? '', `Bearer ${token}`))) {
        const user = await app.authenticate(req);
        if (!user.admin) throw new errors.forbidden('Admin or METRICS_TOKEN only');
      }
      reply.type(registry.contentType);
      return registry.metrics();
    });
  },
  { name: 'metrics', dependencies: ['queues', 'route-registry', 'auth'] },
);
