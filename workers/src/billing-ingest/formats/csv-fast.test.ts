/**
 * The fast CSV reader gives exactly what csv-parse gives: every row, every bad line's reason and line number, and the
 * notes, for plain files and for every oddity it hands over to csv-parse (after reading the records before it), in
 * plain and gzip files, across its read chunks. Each file is read by focusCsvSource twice, once through csv-parse
 * only, and the two item lists must be equal.
 */
import t from 'tap';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SourceItem } from '@cc/shared/ports/billing-source.ts';
import { focusCsvSource } from './focus-csv.ts';

const HEADER = 'BilledCost,BillingCurrency,BillingPeriodStart,ChargeCategory,ChargeClass,ChargePeriodStart,EffectiveCost,ProviderName,ResourceId,ServiceName,SkuId,SubAccountId,SubAccountName,Tags';

/** A data row: `tags` the Tags field as written (quoted or not), `name` the SubAccountName field as written. */
const row = (n: number, over: { name?: string; tags?: string; cost?: string } = {}) =>
  `${over.cost ?? `${n}.25`},USD,2026-05-01T00:00:00Z,Usage,,2026-05-0${(n % 9) + 1}T00:00:00Z,NULL,AWS,"i-${n}",EC2,"sku ${n}",acct-${n % 3},${over.name ?? `"Shop, ""main"""`},${over.tags ?? `"{""team"":""t${n % 4}""}"`}`;

async function items(path: string, reader?: 'csv-parse'): Promise<{ items: SourceItem[]; notes: string[] }> {
  const source = focusCsvSource(path, { reader });
  const out: SourceItem[] = [];
  for await (const item of source.rows()) out.push(item);
  return { items: out, notes: source.notes?.() ?? [] };
}

const CASES: [name: string, text: string | Buffer][] = [
  ['plain LF file', `${HEADER}\n${row(1)}\n${row(2)}\n${row(3)}\n`],
  ['CR LF line ends', `${HEADER}\r\n${row(1)}\r\n${row(2)}\r\n`],
  ['a byte order mark', `\ufeff${HEADER}\n${row(1)}\n`],
  ['empty lines before, between and after', `\n\n${HEADER}\n\n${row(1)}\n\n\n${row(2)}\n\n`],
  ['no line end after the last record', `${HEADER}\n${row(1)}\n${row(2)}`],
  ['line breaks inside quotes', `${HEADER}\n${row(1, { name: '"two\nlines"' })}\n${row(2, { name: '"three\n\nlines"' })}\n${row(3)}\n`],
  ['CR LF inside quotes (csv-parse counts it twice)', `${HEADER}\r\n${row(1)}\r\n${row(2, { name: '"a\r\nb"' })}\r\n${row(3)}\r\n`],
  ['a quote inside an unquoted field', `${HEADER}\n${row(1)}\n${row(2, { name: 'Sh"op' })}\n${row(3)}\n`],
  ['text after a closing quote', `${HEADER}\n${row(1)}\n${row(2, { name: '"Shop"x' })}\n${row(3)}\n`],
  ['a quote never closed', `${HEADER}\n${row(1)}\n${row(2, { name: '"Shop' })}\n`],
  ['LF line ends, then CR LF', `${HEADER}\n${row(1)}\n${row(2)}\r\n${row(3)}\n`],
  ['CR LF line ends, then LF', `${HEADER}\r\n${row(1)}\r\n${row(2)}\n${row(3)}\r\n`],
  ['a bare CR', `${HEADER}\n${row(1)}\r${row(2)}\n`],
  ['records of the wrong length', `${HEADER}\n${row(1)}\n1,2,3\n${row(2)},extra\n${row(3)}\n`],
  ['a header without FOCUS columns', `a;b;c\n1;2;3\n`],
  ['bad values (dates, JSON, money)', `${HEADER}\n${row(1, { cost: 'abc' })}\n${row(2, { tags: '"{not json"' })}\n${row(3)}\n`],
  ['unquoted NULL and empty values', `${HEADER}\n${row(1, { name: 'NULL', tags: '' })}\n${row(2, { name: '""', tags: 'NULL' })}\n`],
  ['UTF-8 text in values', `${HEADER}\n${row(1, { name: '"Café – 東京"' })}\n${row(2, { tags: '"{""ü"":""ß""}"' })}\n`],
  ['only a header', `${HEADER}\n`],
  ['UTF-16 with a byte order mark', Buffer.from(`\ufeff${HEADER}\r\n${row(1)}\r\n`, 'utf16le')],
];

t.test('csv-fast reads each file as csv-parse does', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'cc-csv-fast-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  for (const [i, [name, text]] of CASES.entries()) {
    for (const gzip of [false, true]) {
      const path = join(dir, `case-${i}${gzip ? '.csv.gz' : '.csv'}`);
      await writeFile(path, gzip ? gzipSync(text) : text);
      const fast = await items(path);
      const slow = await items(path, 'csv-parse');
      t.same(fast, slow, `${name}${gzip ? ' (gzip)' : ''}`);
    }
  }
});

t.test('across read chunks: a file of several MiB, oddities far in', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'cc-csv-fast-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const body: string[] = [];
  for (let n = 0; n < 30_000; n++) body.push(row(n, n % 1000 === 7 ? { name: `"line\nbreak ${n}"` } : { tags: `"{""k${n % 17}"":""${'v'.repeat(n % 50)}""}"` }));
  const plain = `${HEADER}\n${body.join('\n')}\n`;
  const odd = `${HEADER}\n${body.slice(0, 25_000).join('\n')}\n${row(1, { name: 'Sh"op' })}\n${body.slice(25_000).join('\n')}\n`;
  const cut = `${HEADER}\n${body.join('\n')}\n${row(9, { name: '"never closed' })}`;
  for (const [name, text] of [['plain', plain], ['a quote inside an unquoted field after 25,000 rows', odd], ['a quote never closed at the end', cut]]) {
    const path = join(dir, `${name.length}.csv`);
    await writeFile(path, text);
    const fast = await items(path);
    const slow = await items(path, 'csv-parse');
    t.same(fast, slow, name);
    if (text === plain) t.equal(fast.items.filter((i) => i.row).length, 30_000, 'every row read');
    else t.match(fast.items.at(-1), { error: /^unreadable CSV: / }, 'the file refused where csv-parse refuses it');
  }
});
