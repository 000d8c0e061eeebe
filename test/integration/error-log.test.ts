/**
 * The screen crash log (POST /v1/logs) cannot be used as free storage: each user may write 30 entries an hour, an
 * entry's data is capped (kept truncated beyond 16 KiB of JSON), and the maintenance job deletes entries older than
 * ERROR_LOG_RETENTION_DAYS (default 30).
 */
import t from 'tap';
import { loadConfig } from '@cc/shared/config.ts';
import { createProducer } from '@cc/shared/producer.ts';
import { MAX_ERROR_DATA_CHARS } from '@cc/shared/db/error-log.ts';
import { buildHandlers } from '../../workers/src/handlers.ts';
import { build, login, bearer } from '../helper.ts';
import { REDIS_URL } from '../db.ts';

type App = Awaited<ReturnType<typeof build>>;
const post = (app: App, token: string, data: unknown, resource = '/billing') =>
  app.inject({ method: 'POST', url: '/v1/logs', headers: bearer(token), payload: { resource, type: 'TypeError', data } });

t.test('30 entries an hour per user, then 429; other users are not held back', async (t) => {
  const app = await build(t);
  const victor = await login(app, 'victor@acme.example');
  const alice = await login(app, 'alice@acme.example');
  const codes = [];
  for (let i = 0; i < 30; i += 1) codes.push((await post(app, victor, { message: `crash ${i}` })).statusCode);
  t.same([...new Set(codes)], [201], '30 stored');
  const refused = await post(app, victor, { message: 'one too many' });
  t.equal(refused.statusCode, 429, 'the 31st is refused');
  t.match(refused.json(), { detail: /Too many attempts; try again in \d+ seconds/ });
  t.ok(Number(refused.headers['retry-after']) > 60, `for most of an hour (Retry-After ${refused.headers['retry-after']})`);
  t.equal((await post(app, alice, { message: 'mine' })).statusCode, 201, 'another user still writes');
  const { rows } = await app.env.pool.query("SELECT count(*)::int AS n FROM error_log WHERE user_email = 'victor@acme.example'");
  t.equal(rows[0].n, 30, 'nothing past the limit was stored');
});

t.test('an entry is capped: small data as sent, large data kept truncated', async (t) => {
  const app = await build(t);
  const alice = await login(app, 'alice@acme.example');
  const small = { message: 'x is undefined', componentStack: 'at Billing' };
  t.equal((await post(app, alice, small)).statusCode, 201);
  const big = { message: 'boom', componentStack: 'at Component\n'.repeat(15_000) };
  const res = await post(app, alice, big, '/big');
  t.equal(res.statusCode, 201, 'a large crash is still recorded');
  const { rows } = await app.env.pool.query('SELECT resource, data, pg_column_size(data) AS bytes FROM error_log ORDER BY id');
  t.same(rows[0].data, small);
  const stored = rows[1].data;
  t.equal(stored.truncated, true);
  t.equal(stored.chars, JSON.stringify(big).length, 'says how large it was');
  t.equal(stored.excerpt.length, MAX_ERROR_DATA_CHARS, 'keeps the beginning');
  t.ok(stored.excerpt.startsWith('{"message":"boom"'), 'the message first');
  t.ok(rows[1].bytes < 20 * 1024, `stored in ${rows[1].bytes} bytes, not ${JSON.stringify(big).length}`);

  const tooLarge = await app.inject({ method: 'POST', url: '/v1/logs', headers: bearer(alice), payload: { resource: '/x', type: 'E', data: 'y'.repeat(300 * 1024) } });
  t.equal(tooLarge.statusCode, 413, 'a body past 256 KiB is refused');
  t.type(tooLarge.json().detail, 'string');
});

t.test('the maintenance job deletes entries past the retention', async (t) => {
  const app = await build(t);
  const { pool } = app.env;
  await pool.query(
    `INSERT INTO error_log (date, user_email, resource, type) VALUES
       (now() - interval '45 days', 'alice@acme.example', '/old', 'E'),
       (now() - interval '30 days 1 hour', 'alice@acme.example', '/just-past', 'E'),
       (now() - interval '29 days', 'alice@acme.example', '/kept', 'E'),
       (now(), 'alice@acme.example', '/today', 'E')`,
  );
  const producer = createProducer(REDIS_URL, app.env.config.QUEUE_PREFIX, () => {});
  t.teardown(() => producer.close());
  const config = loadConfig({}, {});
  t.equal(config.ERROR_LOG_RETENTION_DAYS, 30, 'the default retention');
  const handlers = buildHandlers(['maintenance'], { pool, enqueue: producer.enqueue, errorLogRetentionDays: config.ERROR_LOG_RETENTION_DAYS });
  t.match(await handlers.maintenance({ data: {} } as never), { errorLogPurged: 2 });
  const left = async () => (await pool.query('SELECT resource FROM error_log ORDER BY date')).rows.map((r) => r.resource);
  t.same(await left(), ['/kept', '/today']);

  const shorter = buildHandlers(['maintenance'], { pool, enqueue: producer.enqueue, errorLogRetentionDays: loadConfig({ ERROR_LOG_RETENTION_DAYS: '7' }, {}).ERROR_LOG_RETENTION_DAYS });
  t.match(await shorter.maintenance({ data: {} } as never), { errorLogPurged: 1 });
  t.same(await left(), ['/today'], 'a configured retention of 7 days');
});
