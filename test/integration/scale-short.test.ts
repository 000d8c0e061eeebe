/**
 * The short form of `make scale` (infra/scripts/scale.ts) that CI runs: on a Redis Sentinel group and a Redis Cluster
 * started here, two api instances and a worker process share one Redis and one database — caches, sign-in lockout,
 * revocation across api instances, the access epoch and the queues work the same as on one server, and a primary
 * killed with e-mails queued loses none and sends none twice; a role lowered on one api instance holds on the other
 * at once. A streaming PostgreSQL replica answers reads only when it has every write acknowledged before them, and the
 * list routes read through it: a list asked of one api instance right after a write on the other shows the write.
 */
import t, { type Test } from 'tap';
import { randomBytes, randomUUID } from 'node:crypto';
import { createProducer } from '@cc/shared/producer.ts';
import { durableEnqueue } from '@cc/shared/outbox.ts';
import { loadConfig } from '@cc/shared/config.ts';
import { createPool, readPools, withTransaction } from '@cc/shared/db/pool.ts';
import { buildApp } from '../../api/src/app.ts';
import { bearer, login, removeRedisKeys, testEnv } from '../helper.ts';
import { REDIS_URL } from '../db.ts';
import { freePort, startWorkerProcess, waitFor } from '../faults.ts';
import { startPostgresPair, startRedisCluster, startSentinelGroup } from '../../infra/scripts/scale-topology.ts';
import { migrate } from '../../infra/scripts/migrate.ts';
import { seed } from '../../infra/scripts/seed.ts';
import pg from 'pg';

const ACME_ACCOUNT = '01A2B3-C4D5E6-F7A8B9';

// Started together, and each check waits only for the servers it uses: most of their start-up is waiting (sentinels
// meeting, replicas syncing, initdb).
const servers = { group: startSentinelGroup(), cluster: startRedisCluster(), pair: startPostgresPair() };
for (const s of Object.values(servers)) s.catch(() => undefined);
t.teardown(() => Promise.allSettled(Object.values(servers).map(async (s) => (await s).stop())));
// The product's schema on the pair's primary (the lists' test), made while the Redis shapes run.
const LISTS_DB = 'cc_short_lists';
const listsSchema = servers.pair.then((pair) => migrate(pair.urlFor('primary', LISTS_DB)));
listsSchema.catch(() => undefined);

async function shapeChecks(t: Test, url: string, killPrimary: (prefix: string) => Promise<void>): Promise<void> {
  const env = await testEnv(t, { config: { REDIS_URL: url, LOGIN_MAX_FAILURES: 2 } });
  const { config, pool } = env;
  const api1 = await buildApp(config, { logger: false });
  const api2 = await buildApp(config, { logger: false });
  t.teardown(() => Promise.all([api1.close(), api2.close()]));
  await Promise.all([api1.ready(), api2.ready()]);
  // The worker process loads its modules (the longest step here) while the api instances are checked; started only
  // once they are up, so their plugins' start-up does not share the cores with it.
  const worker = startWorkerProcess(t, config, url, { WORKER_QUEUES: 'notify', MAIL: 'local', LOCAL_SMTP_PORT: String(await freePort()) });
  worker.catch(() => undefined);

  // The chart cache (its lookup script) and the access epoch read in the same round trip.
  const alice = await login(api1, 'alice@acme.example');
  const chart = (app: typeof api1, token = alice) =>
    app.inject({ method: 'POST', url: '/v2/billing/aggregated/by_service/chart/acme-corp', query: { billing_account_id: ACME_ACCOUNT, provider: 'gcp', period: '12months' }, payload: {}, headers: bearer(token) });
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

  // A role lowered on one instance holds on the other from its next request, its cached chart included; removed: refused.
  const [again, admin] = await Promise.all([login(api1, 'alice@acme.example'), login(api1, 'admin@commandcenter.local')]);
  t.equal((await chart(api2, again)).headers['x-cache'], 'hit', 'the chart is cached on the other instance');
  const lowered = await api1.inject({ method: 'PUT', url: '/v1/users/alice@acme.example/', headers: bearer(admin), payload: { role: 'customerViewer', email: 'alice@acme.example', customers: ['acme-corp', 'globex'] } });
  t.equal(lowered.statusCode, 200, lowered.body.slice(0, 200));
  const asViewer = await chart(api2, again);
  t.same([asViewer.statusCode, asViewer.json()], [403, { detail: 'A customer viewer sees only the project-label view' }], 'customer → customerViewer on api 1: api 2 refuses the chart at once');
  t.equal((await api1.inject({ method: 'DELETE', url: '/v1/users/', headers: bearer(admin), payload: { users: ['alice@acme.example'] } })).statusCode, 200);
  const gone = await api2.inject({ method: 'GET', url: '/v1/customers/', headers: bearer(again) });
  t.same([gone.statusCode, gone.json()], [401, { detail: 'User no longer exists' }], 'removed on api 1: api 2 refuses the token at once');
  t.equal((await chart(api2, again)).statusCode, 401, 'and its cached chart');

  // Queues: e-mails through a worker process; the primary killed half-way; every accepted e-mail sent once.
  await worker;
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

// The Redis shapes and the PostgreSQL checks run at once (tap runs a test's children one after another unless its
// jobs allow more). The two shapes stay one after the other: four api instances and two workers starting together on
// a loaded machine can exceed Fastify's plugin start-up time. The two PostgreSQL checks too: each pauses the standby's
// replay, which is the whole server's.
t.jobs = 2;

t.test('Redis Sentinel group and Redis Cluster: caches, lockout, revocation and queues across a failover', async (t) => {
  await Promise.all([
    t.test('Sentinel group, its primary killed', async (t) => {
      const group = await servers.group;
      await shapeChecks(t, group.url, async () => {
        const old = await group.killPrimary();
        await group.failedOver(old);
      });
    }),
    t.test('Cluster, the primary holding the notify queue killed', async (t) => {
      const cluster = await servers.cluster;
      await shapeChecks(t, cluster.url, async (prefix) => {
        const inner = /^\{(.+)\}$/.exec(prefix)![1];
        const dead = await cluster.killPrimaryOf(`{${inner}:notify}`);
        await cluster.healed(dead);
      });
    }),
  ]);
});

t.test('PostgreSQL replica', async (t) => {
  const pair = await servers.pair;
  await t.test('a read sees every write acknowledged before it, or the primary answers', async (t) => {
    const primary = createPool(pair.primaryUrl, 4);
    t.teardown(() => primary.end());
    // long enough that a replica slowed by the Redis checks beside it still catches up; short enough to fall back soon
    const reads = readPools(primary, pair.replicaUrl, { waitMs: 3000 });
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

  await t.test('lists through the replica: a list asked of one api instance right after a write on the other shows it', async (t) => {
    await listsSchema;
    const env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: pair.urlFor('primary', LISTS_DB),
      REDIS_URL,
      QUEUE_PREFIX: `test-${randomUUID()}`,
      WEB_DIST: 'web/dist',
      JWT_SECRET: randomBytes(32).toString('base64url'),
      SECRETS_KEY: randomBytes(32).toString('base64url'),
    };
    const pool = createPool(env.DATABASE_URL, 2);
    await withTransaction(pool, seed);
    // The writer has no replica; the reader reads its lists through one, waiting up to 20 s for replay.
    const writer = await buildApp(loadConfig(env), { logger: false });
    const reader = await buildApp(loadConfig({ ...env, DATABASE_READ_URL: pair.urlFor('replica', LISTS_DB), DATABASE_READ_WAIT_MS: '20000' }), { logger: false });
    const replica = new pg.Client({ connectionString: pair.urlFor('replica', LISTS_DB) });
    await replica.connect();
    t.teardown(async () => {
      await replica.query('SELECT pg_wal_replay_resume()').catch(() => undefined);
      await Promise.all([writer.close(), reader.close(), replica.end()]);
      await pool.end();
      const left = await removeRedisKeys(env.QUEUE_PREFIX);
      if (left.length) throw new Error(`Redis keys left under ${env.QUEUE_PREFIX}: ${left.join(', ')}`);
    });
    // one after the other: two plugin start-ups at once on a loaded machine can exceed Fastify's start-up time
    await writer.ready();
    await reader.ready();
    const [alice, admin] = await Promise.all([login(writer, 'alice@acme.example'), login(writer, 'admin@commandcenter.local')]);

    const lists: { name: string; write: (i: number) => Promise<number>; shows: (i: number) => Promise<boolean> }[] = [
      {
        name: 'project requests',
        write: async (i) =>
          (
            await writer.inject({
              method: 'POST',
              url: '/v1/asset-inventory/project/create',
              headers: bearer(alice),
              payload: { customer_id: 'acme-corp', bu: ['retail', 'finance'][i % 2], product: ['webshop', 'ledger'][i >> 1], env: 'dev', owner_value: 'alice', template_name: 'Standard analytics project' },
            })
          ).statusCode,
        shows: async (i) => {
          const res = await reader.inject({ method: 'GET', url: '/v1/projectprovisioning/acme-corp/', headers: bearer(alice) });
          return res.statusCode === 200 && res.headers['x-total-count'] === String(i + 1) && (res.json() as unknown[]).length === i + 1;
        },
      },
      {
        name: 'users',
        write: async (i) => (await writer.inject({ method: 'POST', url: '/v1/users/', headers: bearer(admin), payload: { emails: `lists-${i}@acme.example`, role: 'customer', customers: ['acme-corp'] } })).statusCode,
        shows: async (i) => {
          const res = await reader.inject({ method: 'GET', url: `/v1/users/?q=lists-${i}@`, headers: bearer(admin) });
          return res.statusCode === 200 && (res.json() as { total: number }).total === 1;
        },
      },
    ];
    for (const list of lists) {
      for (let i = 0; i < 4; i++) {
        // Every other round replay is paused before the write: the list must wait for it, not answer without the write.
        const paused = i % 2 === 1;
        if (paused) await replica.query('SELECT pg_wal_replay_pause()');
        const status = await list.write(i);
        t.ok(status === 200 || status === 201, `${list.name} ${i}: written on the other instance (${status})`);
        let answered = false;
        const shown = list.shows(i).finally(() => (answered = true));
        if (paused) {
          // The replica cannot have the write while its replay is paused: the list is still waiting for it.
          await new Promise((r) => setTimeout(r, 300));
          t.notOk(answered, `${list.name} ${i}: no answer while the replica lacks the write`);
          await replica.query('SELECT pg_wal_replay_resume()');
        }
        t.ok(await shown, `${list.name} ${i}: the list shows the write acknowledged just before it`);
        t.equal(reader.pgRead.last, 'replica', `${list.name} ${i}: read on the replica`);
      }
    }
  });
});
