import t from 'tap';
import type { Pool } from '@cc/shared/db/pool.ts';
import type { Enqueue } from '@cc/shared/producer.ts';
import { buildHandlers } from './handlers.ts';
import { startWorkers } from './worker-host.ts';
import type { DepsOf } from './deps.ts';

// Nothing here runs a job, so the dependencies are never called.
const pool = {} as Pool;
const enqueue: Enqueue = async () => 'never';

t.test('a queue served without its dependencies stops the boot, naming what is missing', async (t) => {
  // What a caller outside the type checker (or an undefined config value) would hand over.
  const partial = { pool, billingSources: {}, chartCache: undefined, enqueue } as unknown as DepsOf<'billing-ingest'>;
  t.throws(() => buildHandlers(['billing-ingest'], partial), /missing worker dependencies: billing-ingest needs chartCache/);
  t.throws(() => buildHandlers(['maintenance', 'anomaly-detect'], { pool } as DepsOf<'maintenance' | 'anomaly-detect'>), {
    message: 'missing worker dependencies: maintenance needs enqueue, maintenance needs errorLogRetentionDays, anomaly-detect needs enqueue, anomaly-detect needs publicUrl',
  });
});

t.test('exactly the queues served get a handler', async (t) => {
  const handlers = buildHandlers(['maintenance', 'anomaly-detect'], { pool, enqueue, errorLogRetentionDays: 30, publicUrl: 'http://cc.test' });
  t.same(Object.keys(handlers).sort(), ['anomaly-detect', 'maintenance']);
  t.type(handlers.maintenance, 'function');
});

t.test('the host refuses a queue without a handler before it connects', async (t) => {
  await t.rejects(
    startWorkers({ redisUrl: 'redis://127.0.0.1:1', prefix: 'never', queues: ['notify'], handlers: {} as never }),
    /no handler registered for queue notify/,
  );
});
