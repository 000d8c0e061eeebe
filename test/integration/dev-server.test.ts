import t from 'tap';
import { PassThrough } from 'node:stream';
import { buildApp } from '../../api/src/app.ts';
import { build, login, bearer, testEnv } from '../helper.ts';

/** The api with its pino output collected as parsed lines. */
async function appWithLog(t: Parameters<typeof testEnv>[0], level: 'info' | 'debug') {
  const env = await testEnv(t, { seed: false });
  const stream = new PassThrough();
  const lines: Record<string, unknown>[] = [];
  stream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
  });
  const app = await buildApp({ ...env.config, LOG_LEVEL: level }, { logStream: stream });
  await app.ready();
  t.teardown(() => app.close());
  return { app, lines };
}

t.test('requests are logged at debug, once each, and not at info', async (t) => {
  const info = await appWithLog(t, 'info');
  await info.app.inject('/healthz');
  t.same(info.lines.filter((l) => l.reqId), [], 'LOG_LEVEL=info: no request lines');

  const debug = await appWithLog(t, 'debug');
  await debug.app.inject({ url: '/healthz', headers: { 'x-request-id': 'req-1' } });
  const requestLines = debug.lines.filter((l) => l.reqId === 'req-1');
  t.equal(requestLines.length, 1, 'one line per request');
  t.match(requestLines[0], { level: 20, msg: 'request completed', method: 'GET', url: '/healthz', statusCode: 200, ms: Number });
});

t.test('bull-board loads nothing from the internet', async (t) => {
  const app = await build(t);
  const admin = await login(app, 'admin@commandcenter.local');
  const page = await app.inject({ url: '/ops/queues', headers: bearer(admin) });
  t.equal(page.statusCode, 200);
  t.match(page.headers['content-type'], /^text\/html/);
  t.match(page.body, /<title>CommandCenter queues<\/title>/);
  t.match(page.body, /static\/css\/main\.[0-9a-f]+\.css/, 'its own stylesheet stays');
  t.notMatch(page.body, /https?:\/\//, 'no absolute URL: fonts, scripts and styles all come from the api');
});
