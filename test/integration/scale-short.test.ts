/**
 * The short form of `make scale` (infra/scripts/scale.ts) that CI runs: on a Redis Sentinel group and a Redis Cluster
 * started here, two api instances and a worker process share one Redis and one database — caches, sign-in lockout,
 * revocation across api instances, the access epoch and the queues work the same as on one server, and a primary
 * killed with e-mails queued loses none and sends none twice. A streaming PostgreSQL replica answers reads only when
 * it has every write acknowledged before them.
 */
import t, { type Test } from 'tap';
import { createProducer } from '@cc/shared/producer.ts';
import { durableEnqueue } from '@cc/shared/outbox.ts';
import { createPool, readPools } from '@cc/shared/db/pool.ts';
import { buildApp } from '../../api/src/app.ts';
import { bearer, login, testEnv } from '../helper.ts';
import { freePort, startWorkerProcess, waitFor } from '../faults.ts';
import { startPostgresPair, startRedisCluster, startSentinelGroup } from '../../infra/scripts/scale-topology.ts';
import pg from 'pg';

const ACME_ACCOUNT = '01A2B3-C4D5E6-F7A8B9';

// Started together: most of their start-up is waiting (sentinels meeting, replicas syncing, initdb).
const [group, cluster, pair] = await Promise.all([startSentinelGroup(), startRedisCluster(), startPostgresPair()]);
t.teardown(() => Promise.all([group.stop(), cluster.stop(), pair.stop()]));

async function shapeChecks(t: Test, url: string, killPrimary: (prefix: string) => Promise<void>): Promise<void> {
  const env = await testEnv(t, { config: { REDIS_URL: url, LOGIN_MAX_FAILURES: 2 } });
  const { config, pool } = env;
  const api1 = await buildApp(config, { logger: false });
  const api2 = await buildApp(config, { logger: false });
  t.teardown(() => Promise.all([api1.close(), api2.close()]));
  await Promise.all([api1.ready(), api2.ready()]);

  // The chart cache (its lookup script) and the access epoch read in the same round trip.
  const alice = await login(api1, 'alice@acme.example');
  const chart = (app: typeof api1) =>
    app.inject({ method: 'POST', url: '/v2/billing/aggregated/by_service/chart/acme-corp', query: { billing_account_id: ACME_ACCOUNT, provider: 'gcp', period: '12months' }, payload: {}, headers: bearer(alice) });
  const first = await chart(api1);
  t.equal(first.statusCode, 200, first.body.slice(0, 200));
  t.equal(first.headers['x-cache'], 'miss');
  const second = await chart(api2);
  t.equal(second.headers['x-cache'], 'hit', 'the other api instance reads the cached answer');
  t.equal(second.body, first.body);

  // Sign-in lockout (MULTI of GET/PTTL and INCR/PEXPIRE) counts across both instances.
  const wrong = (app: typeof api1) => app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: 'bob@initech.example', password: 'not-the-password' } });
  t.equal((await wrong(api1)).statusCode, 401);
  t.equal((await wrong(api2)).statusCode, 401);
  t.equal((await wrong(api1)).statusCode, 429, 'locked after two failures counted by two instances');

  // Sign-out on one instance is refused at once by the other.
  t.equal((await api2.inject({ method: 'GET', url: '/v1/auth/me', headers: bearer(alice) })).statusCode, 200);
  t.equal((await api1.inject({ method: 'POST', url: '/v1/auth/logout', headers: bearer(alice) })).statusCode, 204);
  const refused = await api2.inject({ method: 'GET', url: '/v1/auth/me', headers: bearer(alice) });
  t.equal(refused.statusCode, 401);
  t.same(refused.json(), { detail: 'Token revoked' });

  // Queues: e-mails through a worker process; the primary killed half-way; every accepted e-mail sent once.
  await startWorkerProcess(t, config, url, { WORKER_QUEUES: 'notify', MAIL: 'local', LOCAL_SMTP_PORT: String(await freePort()) });
  const producer = createProducer(url, config.QUEUE_PREFIX, () => undefined);
  t.teardown(() => producer.close());
  const enqueue = durableEnqueue(pool, producer);
  const send = async (from: number, to: number) => {
    for (let i = from; i < to; i++) await enqueue('notify', 'notify.send', { to: [`u${i}@example.com`], subject: `scale ${i}`, text: 'hi', key: `scale-${i}` });
  };
  await send(0, 20);
  await killPrimary(config.QUEUE_PREFIX);
  // Accepted while Redis fails over: recorded in the outbox, published by the reconciler when Redis answers.
  await send(20, 40);
  const count = async () => (await pool.query<{ n: number; d: number }>(`SELECT count(*)::int AS n, count(DISTINCT subject)::int AS d FROM mail_message WHERE subject LIKE 'scale %'`)).rows[0]!;
  await waitFor('40 e-mails stored', async () => (await count()).d >= 40, 45_000, 200);
  await new Promise((r) => setTimeout(r, 500));
  t.same(await count(), { n: 40, d: 40 }, 'each of the 40 e-mails sent exactly once');
}

// The two shapes at once (each its own database, prefix, api instances and worker): the worker start-ups overlap.
t.test('Redis Sentinel group and Redis Cluster: caches, lockout, revocation and queues across a failover', async (t) => {
  await Promise.all([
    t.test('Sentinel group, its primary killed', (t) =>
      shapeChecks(t, group.url, async () => {
        const old = await group.killPrimary();
        await group.failedOver(old);
      }),
    ),
    t.test('Cluster, the primary holding the notify queue killed', (t) =>
      shapeChecks(t, cluster.url, async (prefix) => {
        const inner = /^\{(.+)\}$/.exec(prefix)![1];
        const dead = await cluster.killPrimaryOf(`{${inner}:notify}`);
        await cluster.healed(dead);
      }),
    ),
  ]);
});

t.test('PostgreSQL replica: a read sees every write acknowledged before it, or the primary answers', async (t) => {
  const primary = createPool(pair.primaryUrl, 4);
  t.teardown(() => primary.end());
  const reads = readPools(primary, pair.replicaUrl, { waitMs: 300 });
  t.teardown(() => reads.close());
  await primary.query('CREATE TABLE scale_probe (n int)');
  const sum = (db: pg.Pool) => db.query<{ s: number }>('SELECT coalesce(sum(n), 0)::int AS s FROM scale_probe').then((r) => r.rows[0]!.s);
  let expected = 0;
  for (let i = 1; i <= 50; i++) {
    await primary.query('INSERT INTO scale_probe VALUES ($1)', [i]);
    expected += i;
    t.equal(await reads.fresh(sum), expected, `read ${i} after its write`);
  }
  t.equal(reads.last, 'replica', 'answered by the replica');
  // Replay paused: the replica is behind the next write; the primary answers, never the older figure.
  const replica = new pg.Client({ connectionString: pair.replicaUrl });
  await replica.connect();
  t.teardown(() => replica.end());
  await replica.query('SELECT pg_wal_replay_pause()');
  await primary.query('INSERT INTO scale_probe VALUES (1000)');
  t.equal(await reads.fresh(sum), expected + 1000, 'the write is in the answer');
  t.equal(reads.last, 'primary', 'from the primary while the replica lags');
  await replica.query('SELECT pg_wal_replay_resume()');
  t.equal(await reads.fresh(sum), expected + 1000);
  t.equal(reads.last, 'replica', 'back on the replica once it replayed the write');
});
