/**
 * Files that are not FOCUS CSV text are refused at once, with the line where they stop being text: another encoding
 * (Latin-1 would load garbled), binary content (a 2 GB sparse file of NUL bytes kept a worker busy for an hour),
 * records without end. UTF-16 with a byte order mark still loads. The api only looks at a file's first kilobytes:
 * it answers at once, whatever the size, and leaves hashing to the worker.
 */
import t from 'tap';
import { mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { Pool } from '@cc/shared/db/pool.ts';
import { focusCsvSource } from '../../workers/src/billing-ingest/formats/focus-csv.ts';
import { runIngest, IngestRejected } from '../../workers/src/billing-ingest/ingest.ts';
import { build, login, bearer, testEnv } from '../helper.ts';

const FOCUS_SAMPLE = new URL('../../infra/data/focus-1.0/focus_sample.csv', import.meta.url).pathname;
const GLOBEX = { customerId: 'globex', billingAccountId: '02B3C4-D5E6F7-A8B9C0' };

const quote = (v: string | null) => (v === null ? 'NULL' : `"${v.replace(/"/g, '""')}"`);

/** The sample's header and first `n` rows as CSV text, with the first row's SubAccountName set to `name`. */
async function sampleText(n: number, name: string): Promise<string> {
  const records = parse(await readFile(FOCUS_SAMPLE), { bom: true, cast: (v, ctx) => (!ctx.quoting && v === 'NULL' ? null : v) }) as (string | null)[][];
  const [header, ...rows] = records.slice(0, n + 1);
  rows[0][header.indexOf('SubAccountName')] = name;
  return [header, ...rows].map((r) => r.map(quote).join(',')).join('\n') + '\n';
}

const ingest = (pool: Pool, path: string) => runIngest({ pool, ...GLOBEX, sourceKind: 'focus-file', source: focusCsvSource(path), fileName: path });
const names = async (pool: Pool) =>
  (await pool.query<{ project_name: string }>('SELECT DISTINCT project_name FROM cost_line WHERE billing_account_id = $1 ORDER BY 1', [GLOBEX.billingAccountId])).rows.map(
    (r) => r.project_name,
  );
const lineCount = async (pool: Pool) => (await pool.query('SELECT count(*)::int AS n FROM cost_line WHERE billing_account_id = $1', [GLOBEX.billingAccountId])).rows[0].n;

t.test('encodings: UTF-8 and UTF-16 with a BOM load exactly, Latin-1 is refused with its line', async (t) => {
  const { pool } = await testEnv(t);
  const dir = await mkdtemp(join(tmpdir(), 'cc-enc-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const text = await sampleText(5, 'Café Déjà vu');
  const files = {
    utf8: Buffer.from(text, 'utf8'),
    utf16le: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
    utf16be: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]).swap16(),
  };
  for (const [name, bytes] of Object.entries(files)) {
    const path = join(dir, `${name}.csv`);
    await writeFile(path, bytes);
    const summary = await ingest(pool, path);
    t.equal(summary.rows, 5, `${name}: every row`);
    t.ok((await names(pool)).includes('Café Déjà vu'), `${name}: the name as written`);
  }

  const latin1 = join(dir, 'latin1.csv');
  await writeFile(latin1, Buffer.from(await sampleText(5, 'Café Déjà vu'), 'latin1'));
  await pool.query('DELETE FROM cost_line');
  const err = await ingest(pool, latin1).catch((e: unknown) => e);
  t.type(err, IngestRejected);
  t.same((err as IngestRejected).errors, [
    { line: 2, reason: 'the file is not UTF-8 text: byte 0xE9 on line 2 is not UTF-8 (save it as UTF-8, or as UTF-16 with a byte order mark)' },
  ]);
  t.equal(await lineCount(pool), 0, 'nothing of it loaded');

  // A character cut by the end of the file, far from the first kilobytes.
  const cut = join(dir, 'cut.csv');
  await writeFile(cut, Buffer.concat([Buffer.from((await sampleText(40, 'x')).trimEnd()), Buffer.from([0xc3])]));
  t.match(((await ingest(pool, cut).catch((e: unknown) => e)) as IngestRejected).errors.at(-1), { line: 41, reason: /ends inside a character on line 41$/ });
});

t.test('binary and endless content: refused at once, the line named, no byte of it in the message', async (t) => {
  const { pool } = await testEnv(t);
  const dir = await mkdtemp(join(tmpdir(), 'cc-bin-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const good = await sampleText(3, 'x');
  const cases: { name: string; write: (path: string) => Promise<void>; line: number; reason: RegExp }[] = [
    {
      name: 'sparse 2 GB of NUL bytes',
      write: async (path) => {
        await writeFile(path, '');
        await truncate(path, 2 * 1024 ** 3);
      },
      line: 1,
      reason: /^the file is binary, not CSV text \(a NUL byte on line 1\)$/,
    },
    { name: 'control bytes', write: (path) => writeFile(path, Buffer.from(Array.from({ length: 4096 }, (_, i) => 1 + (i % 8)))), line: 1, reason: /^the file is binary, not CSV text \(control characters on line 1\)$/ },
    { name: 'NULs after the first kilobytes', write: (path) => writeFile(path, good + 'x'.repeat(9000) + '\0'.repeat(3 * 1024 ** 2)), line: 5, reason: /^a record is longer than 1024 KiB characters/ },
    { name: 'blank lines', write: (path) => writeFile(path, good + '\n'.repeat(5 * 1024 ** 2)), line: 4, reason: /^no record ends in the 4 MiB after line 4: the file is not FOCUS CSV$/ },
    { name: 'a line of commas', write: (path) => writeFile(path, good + ','.repeat(20_000) + '\n'), line: 5, reason: /^a record has more than 10000 fields/ },
  ];
  for (const c of cases) {
    const path = join(dir, `${c.name.replace(/\W+/g, '-')}.csv`);
    await c.write(path);
    const began = Date.now();
    const err = await ingest(pool, path).catch((e: unknown) => e);
    const ms = Date.now() - began;
    t.type(err, IngestRejected, `${c.name}: rejected (${String(err)})`);
    const last = (err as IngestRejected).errors.at(-1)!;
    t.equal(last.line, c.line, `${c.name}: line ${c.line}`);
    t.match(last.reason, c.reason, c.name);
    // eslint-disable-next-line no-control-regex -- looking for control characters
    t.notMatch(last.reason, /[\u0000-\u0008\u000e-\u001f\ufffd]/, `${c.name}: the reason holds no binary`);
    t.ok(ms < 5_000, `${c.name}: at once (${ms} ms)`);
    await rm(path);
  }
  t.equal(await lineCount(pool), 0);
});

t.test('POST /v2/billing/ingest: a binary file is refused at once, a large one queued without being read', async (t) => {
  const dropDir = await mkdtemp(join(tmpdir(), 'cc-drop-'));
  t.teardown(() => rm(dropDir, { recursive: true, force: true }));
  const app = await build(t, { config: { INGEST_DROP_DIR: dropDir } });
  const admin = bearer(await login(app, 'admin@commandcenter.local'));
  const post = (file: string) =>
    app.inject({ method: 'POST', url: '/v2/billing/ingest', headers: admin, payload: { customer_id: GLOBEX.customerId, billing_account_id: GLOBEX.billingAccountId, source: 'focus-file', file } });

  await writeFile(join(dropDir, 'zeros.csv'), '');
  await truncate(join(dropDir, 'zeros.csv'), 1024 ** 3);
  let began = Date.now();
  const zeros = await post('zeros.csv');
  t.equal(zeros.statusCode, 400);
  t.same(zeros.json(), { detail: 'file rejected, nothing loaded: line 1: the file is binary, not CSV text (a NUL byte on line 1)' });
  t.ok(Date.now() - began < 1_000, `answered in ${Date.now() - began} ms`);

  await writeFile(join(dropDir, 'latin1.csv'), Buffer.from(await sampleText(3, 'Café'), 'latin1'));
  t.same((await post('latin1.csv')).json(), {
    detail: 'file rejected, nothing loaded: line 2: the file is not UTF-8 text: byte 0xE9 on line 2 is not UTF-8 (save it as UTF-8, or as UTF-16 with a byte order mark)',
  });

  // Text over the first kilobytes and 1 GB after it: the request reads 8 KB of it, the worker the rest.
  const big = join(dropDir, 'big.csv');
  await writeFile(big, await sampleText(40, 'x'));
  await truncate(big, 1024 ** 3);
  began = Date.now();
  const queued = await post('big.csv');
  const ms = Date.now() - began;
  t.equal(queued.statusCode, 202, queued.body);
  t.ok(ms < 1_000, `queued in ${ms} ms without reading the file`);
  await app.producers.queues['billing-ingest'].remove(queued.json().job_id);
});
