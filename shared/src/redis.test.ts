import t from 'tap';
import { Cluster, Redis } from 'ioredis';
import { createRedis, parseRedisTarget, queuePrefix } from './redis.ts';
import { ConfigError, loadConfig } from './config.ts';

t.test('REDIS_URL names one server, a Sentinel group or a Cluster', async (t) => {
  t.same(parseRedisTarget('redis://127.0.0.1:6379'), { shape: 'single', url: 'redis://127.0.0.1:6379' });
  t.same(parseRedisTarget('redis+sentinel://10.0.0.1:26379,10.0.0.2:26379/cc-main'), {
    shape: 'sentinel',
    sentinels: [
      { host: '10.0.0.1', port: 26379 },
      { host: '10.0.0.2', port: 26379 },
    ],
    name: 'cc-main',
  });
  t.same(parseRedisTarget('redis+sentinel://:s%40cret@h1:26379/main/2'), { shape: 'sentinel', sentinels: [{ host: 'h1', port: 26379 }], name: 'main', password: 's@cret', db: 2 });
  t.same(parseRedisTarget('redis+cluster://h1:7000,h2:7001'), { shape: 'cluster', nodes: [{ host: 'h1', port: 7000 }, { host: 'h2', port: 7001 }] });
  t.throws(() => parseRedisTarget('redis+sentinel://h1:26379'), /names its master group/);
  t.throws(() => parseRedisTarget('redis+cluster://h1:7000/3'), /has no path/);
  t.throws(() => parseRedisTarget('redis+cluster://h1'), /'h1' is not host:port/);
});

t.test('one server keeps its prefix; on a Cluster each queue gets a hash tag of its own', async (t) => {
  t.equal(queuePrefix('cc', 'notify'), 'cc');
  t.equal(queuePrefix('{cc}', 'notify'), '{cc:notify}');
  t.equal(queuePrefix('{cc}', 'billing-ingest'), '{cc:billing-ingest}');
});

t.test('the settings fold into REDIS_URL, and a Cluster tags the prefix', async (t) => {
  const single = loadConfig({});
  t.equal(single.REDIS_URL, 'redis://127.0.0.1:6379');
  t.equal(single.QUEUE_PREFIX, 'cc');
  const sentinel = loadConfig({ REDIS_URL: 'redis://:pw@localhost/3', REDIS_SENTINELS: 'a:26379,b:26379', REDIS_SENTINEL_NAME: 'main' });
  t.equal(sentinel.REDIS_URL, 'redis+sentinel://:pw@a:26379,b:26379/main/3');
  t.equal(sentinel.QUEUE_PREFIX, 'cc');
  const cluster = loadConfig({ REDIS_CLUSTER_NODES: 'a:7000,b:7001' });
  t.equal(cluster.REDIS_URL, 'redis+cluster://a:7000,b:7001');
  t.equal(cluster.QUEUE_PREFIX, '{cc}');
  t.equal(loadConfig({ REDIS_URL: 'redis+cluster://a:7000', QUEUE_PREFIX: '{x}' }).QUEUE_PREFIX, '{x}');
  t.throws(() => loadConfig({ REDIS_SENTINELS: 'a:1' }), new ConfigError('REDIS_SENTINEL_NAME is required with REDIS_SENTINELS'));
  t.throws(() => loadConfig({ REDIS_SENTINELS: 'a:1', REDIS_SENTINEL_NAME: 'm', REDIS_CLUSTER_NODES: 'b:2' }), /cannot both be set/);
  t.throws(() => loadConfig({ REDIS_CLUSTER_NODES: 'nohost' }), /REDIS_CLUSTER_NODES: 'nohost' is not host:port/);
  t.throws(() => loadConfig({ REDIS_URL: 'redis+sentinel://a:1' }), /REDIS_URL a redis\+sentinel:\/\/ address names its master group/);
  t.throws(() => loadConfig({ REDIS_URL: 'redis+cluster://a:7000', QUEUE_PREFIX: 'a{b}' }), /one hash tag/);
});

t.test('createRedis: one server is exactly a Redis of the URL; the other shapes their clients', async (t) => {
  const single = createRedis('redis://127.0.0.1:1', { lazyConnect: true, maxRetriesPerRequest: 1 });
  t.ok(single instanceof Redis);
  t.equal((single as Redis).options.port, 1);
  t.equal((single as Redis).options.maxRetriesPerRequest, 1);
  const sentinel = createRedis('redis+sentinel://127.0.0.1:1,127.0.0.1:2/main', { lazyConnect: true });
  t.ok(sentinel instanceof Redis);
  t.same((sentinel as Redis).options.sentinels, [{ host: '127.0.0.1', port: 1 }, { host: '127.0.0.1', port: 2 }]);
  t.equal((sentinel as Redis).options.name, 'main');
  const cluster = createRedis('redis+cluster://127.0.0.1:1', { lazyConnect: true, maxRetriesPerRequest: null, enableOfflineQueue: false });
  t.ok(cluster instanceof Cluster);
  t.equal((cluster as Cluster).options.redisOptions?.maxRetriesPerRequest, null);
  t.equal((cluster as Cluster).options.enableOfflineQueue, false);
  for (const c of [single, sentinel, cluster]) c.disconnect();
});
