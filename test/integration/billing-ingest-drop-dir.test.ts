/**
 * The ingest drop directory is read only through real paths inside it, and only regular files: a link to a file
 * outside (the secret key, /etc/passwd), a linked directory, a FIFO or a device is refused by the api at once and,
 * since the folder may change after the api looked, by the worker when it opens the file.
 */
import t from 'tap';
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Queue } from 'bullmq';
import { jobOptions } from '@cc/shared/queues.ts';
import { createProducer } from '@cc/shared/producer.ts';
import { chartCache } from '@cc/shared/billing/chart-cache.ts';
import { createLogger } from '@cc/shared/logger.ts';
import { billingIngestHandler } from '../../workers/src/jobs/billing-ingest.ts';
import { startWorkers } from '../../workers/src/worker-host.ts';
import { build, login, bearer } from '../helper.ts';
import { REDIS_URL } from '../db.ts';
import { jobOutcomes } from '../job-outcomes.ts';

const FOCUS_SAMPLE = new URL('../../infra/data/focus-1.0/focus_sample.csv', import.meta.url).pathname;
const GLOBEX = { customer_id: 'globex', billing_account_id: '02B3C4-D5E6F7-A8B9C0' };

/** Fails the test instead of hanging when a FIFO is opened for reading (that blocks until a writer comes). */
const within = <T>(ms: number, p: Promise<T>) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref())]);

t.test('links out of the drop directory and non-regular files: refused by the api and by the worker', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'cc-dropdir-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const dropDir = join(root, 'drop');
  const outside = join(root, 'outside');
  await mkdir(dropDir);
  await mkdir(outside);
  await copyFile(FOCUS_SAMPLE, join(outside, 'secret.csv'));
  await copyFile(FOCUS_SAMPLE, join(dropDir, 'real.csv'));
  await symlink(join(outside, 'secret.csv'), join(dropDir, 'link-out.csv'));
  await symlink('/etc/passwd', join(dropDir, 'passwd.csv'));
  await symlink(outside, join(dropDir, 'linked-dir'));
  await symlink(join(dropDir, 'real.csv'), join(dropDir, 'link-in.csv'));
  await promisify(execFile)('mkfifo', [join(dropDir, 'fifo.csv')]);

  const app = await build(t, { config: { INGEST_DROP_DIR: dropDir } });
  const { pool, config } = app.env;
  const admin = bearer(await login(app, 'admin@commandcenter.local'));
  const post = (file: string) =>
    within(5_000, app.inject({ method: 'POST', url: '/v2/billing/ingest', headers: admin, payload: { ...GLOBEX, source: 'focus-file', file } }));

  for (const file of ['link-out.csv', 'passwd.csv', 'linked-dir/secret.csv']) {
    const res = await post(file);
    t.equal(res.statusCode, 400, file);
    t.same(res.json(), { detail: 'file must be inside the ingest drop directory' }, file);
  }
  const fifo = await post('fifo.csv');
  t.equal(fifo.statusCode, 400);
  t.same(fifo.json(), { detail: 'file is not a regular file (a FIFO, device or directory cannot be ingested)' });
  // A link that stays inside is the file it names: queued under its real path.
  const inside = await post('link-in.csv');
  t.equal(inside.statusCode, 202, inside.body);
  await app.producers.queues['billing-ingest'].remove(inside.json().job_id);

  // The worker: jobs naming what the api would have refused (the folder changed after the api looked).
  const producer = createProducer(REDIS_URL, config.QUEUE_PREFIX, () => undefined);
  t.teardown(() => producer.close());
  const host = await startWorkers({
    redisUrl: REDIS_URL,
    prefix: config.QUEUE_PREFIX,
    queues: ['billing-ingest'],
    handlers: {
      'billing-ingest': billingIngestHandler({
        pool,
        billingSources: { dropDir },
        chartCache: chartCache(producer.redis, config.QUEUE_PREFIX, createLogger('silent')),
        enqueue: producer.enqueue,
      }),
    },
  });
  t.teardown(() => host.close());
  const queue = new Queue('billing-ingest', { connection: { url: REDIS_URL }, prefix: config.QUEUE_PREFIX });
  t.teardown(() => queue.close());
  const outcome = await jobOutcomes(t, 'billing-ingest', { redisUrl: REDIS_URL, prefix: config.QUEUE_PREFIX });
  const refusals: [string, RegExp][] = [
    [join(dropDir, 'link-out.csv'), /^file must be inside the ingest drop directory$/],
    [join(dropDir, 'passwd.csv'), /^file must be inside the ingest drop directory$/],
    [join(dropDir, 'linked-dir', 'secret.csv'), /^file must be inside the ingest drop directory$/],
    [join(outside, 'secret.csv'), /^file must be inside the ingest drop directory$/],
    [join(dropDir, 'fifo.csv'), /^file is not a regular file/],
  ];
  for (const [file, reason] of refusals) {
    const cmd = { ...GLOBEX, source: 'focus-file' as const, file };
    const job = await queue.add('billing.ingest', cmd, jobOptions('billing-ingest', cmd));
    await t.rejects(within(15_000, outcome(job.id!)), reason, file);
    t.equal((await queue.getJob(job.id!))?.attemptsMade, 1, `${file}: failed once, not retried`);
  }
  const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM cost_line WHERE billing_account_id = $1', [GLOBEX.billing_account_id]);
  t.equal(rows[0].n, 0, 'nothing of any of them read');
  const cmd = { ...GLOBEX, source: 'focus-file' as const, file: join(dropDir, 'link-in.csv') };
  const ok = (await outcome((await queue.add('billing.ingest', cmd, jobOptions('billing-ingest', cmd))).id!)) as { rows: number };
  t.ok(ok.rows > 0, 'a link to a file inside the directory is read');
});
