/**
 * No input gets an HTTP 500: every operation of the OpenAPI document (so routes added later too) gets
 * hostile values in each path parameter, query parameter and body field in turn — NUL bytes, control
 * characters, lone surrogates, invalid UTF-8, integers beyond any column (99999999999999999999, 1e309),
 * empty path ids and 5,000-deep JSON — and must answer a 4xx `{ detail }` (or succeed), never 5xx.
 */
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { build } from '../helper.ts';
import { operations, variants } from './openapi.ts';

t.test('hostile input never gets a 500', async (t) => {
  const app = await build(t);
  const ops = await operations(app);
  t.ok(ops.length > 50, `fuzzing ${ops.length} operations from the OpenAPI document`);
  // A fresh admin token (and session id) per request: admin reaches every handler, and a fuzzed logout or sign out
  // everywhere ends no session another request relies on.
  const admin = () => `Bearer ${app.jwt.sign({ sub: 'admin@commandcenter.local', claims: null, sid: randomUUID() }, { expiresIn: '10m', jti: randomUUID() })}`;
  let sent = 0;
  for (const op of ops) {
    const failures: string[] = [];
    for (const v of variants(op)) {
      const res = await app.inject({
        method: op.method as 'GET',
        url: v.url,
        headers: { authorization: admin(), ...(v.payload === undefined ? {} : { 'content-type': 'application/json' }) },
        payload: v.payload,
      });
      sent += 1;
      const json = /json/.test(String(res.headers['content-type'])) ? (res.json() as { detail?: unknown }) : null;
      if (res.statusCode >= 500) failures.push(`${v.label} → ${res.statusCode} ${res.body.slice(0, 160)}`);
      else if (res.statusCode >= 400 && json && typeof json.detail !== 'string') failures.push(`${v.label} → ${res.statusCode} without {detail}: ${res.body.slice(0, 160)}`);
    }
    t.same(failures, [], `${op.method} ${op.path}`);
  }
  t.ok(sent > 300, `${sent} hostile requests sent`);
});
