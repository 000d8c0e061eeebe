import t from 'tap';
import Fastify from 'fastify';
import errorHandler from './error-handler.ts';

async function appThrowing(err: Error) {
  const app = Fastify({ logger: false });
  await app.register(errorHandler);
  app.get('/boom', async () => {
    throw err;
  });
  await app.ready();
  return app;
}

t.test('a 5xx hides its message unless the error is marked safe to show', async (t) => {
  const internal = await appThrowing(new Error('password=hunter2 in a stack'));
  const hidden = await internal.inject('/boom');
  t.equal(hidden.statusCode, 500);
  t.same(hidden.json(), { detail: 'Internal Server Error' });

  const upstream = Object.assign(new Error('generateAccessToken failed: 403 Permission denied'), { statusCode: 502, expose: true });
  const shown = await (await appThrowing(upstream)).inject('/boom');
  t.equal(shown.statusCode, 502);
  t.same(shown.json(), { detail: 'generateAccessToken failed: 403 Permission denied' });
});

t.test('a 4xx sends its message as detail', async (t) => {
  const res = await (await appThrowing(Object.assign(new Error('Quota must be a number'), { statusCode: 400 }))).inject('/boom');
  t.equal(res.statusCode, 400);
  t.same(res.json(), { detail: 'Quota must be a number' });
});
