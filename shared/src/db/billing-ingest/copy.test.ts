/**
 * costLineCopy writes its lines field by field as bytes (for speed) rather than from the column list: each line must
 * still be what the column list's own values give, escapes, NULLs and UTF-8 included, in the order its COPY statement
 * names, and many lines into one growing buffer must come out whole.
 */
import t from 'tap';
import type { CostRow } from '../../ports/billing-source.ts';
import { COPY_COLUMNS, COST_LINE_COPY_COLUMNS, costLineCopy, CopyBytes, toCopyLine } from './copy.ts';
import { costRow } from '../../../../test/fixtures/cost-row.ts';


const rows: CostRow[] = [
  costRow({}),
  costRow({ invoice_month: null, cost_type: null, resource_id: undefined, project_labels: {}, effective_cost: '3', correction: true }),
  costRow({ provider_name: 'Tab\there', project_name: 'line\nbreak', service: 'back\\slash', sku: 'cr\rlf', resource_id: 'a\tb' }),
  costRow({ project_labels: { 'quote"d': 'back\\slash', nl: 'a\nb' }, resource_labels: { tab: 'x\ty' } }),
  // the first row's texts changed, each to one of the same length
  costRow({ provider: 'gcq', project_id: 'p2', project_name: 'Project Two', service: 'Compute Enginf', sku: 'vCPV' }),
  // text beyond ASCII, escapes after it, a character outside the BMP
  costRow({ project_name: 'Café – 東京\tb\\c', service: 'x😀y\n', sku: '\u0001\u007f' }),
];

/** A row's line as the column list's own values give it, constant columns first, in the statement's order. */
function expectedLine(r: CostRow, extras: { amortisation: string }, constant: string[]): string {
  const fields = toCopyLine(r).slice(0, -1).split('\t');
  const byName = new Map(COPY_COLUMNS.map(([name], k) => [name, fields[k]]));
  return [...constant, ...COST_LINE_COPY_COLUMNS.slice(3, -1).map((name) => byName.get(name)), extras.amortisation].join('\t') + '\n';
}

const extrasOf = (r: CostRow, i: number) => ({ amortisation: i === 1 ? '2.25' : '0', project_labels: JSON.stringify(r.project_labels), resource_labels: JSON.stringify(r.resource_labels) });

t.test('each line equals the column list values, in the statement order', async (t) => {
  const copy = costLineCopy({ customerId: 'acme\tcorp', billingAccountId: '01A2B3', batchId: '42' });
  t.equal(copy.sql, `COPY cost_line (${COST_LINE_COPY_COLUMNS.join(', ')}) FROM STDIN`);
  for (const i of [0, 1, 2, 3, 2, 2, 0, 4, 0, 3, 3, 1, 4, 4, 5, 0, 5]) {
    const r = rows[i];
    t.equal(copy.line(r, extrasOf(r, i)), expectedLine(r, extrasOf(r, i), ['acme\\tcorp', '01A2B3', '42']), `row ${i + 1}`);
  }
});

t.test('many lines into one CopyBytes: the buffer grows and each take holds what was written since the last', async (t) => {
  const copy = costLineCopy({ customerId: 'c', billingAccountId: 'b', batchId: '1' });
  const out = new CopyBytes(64);
  let want = '';
  for (let i = 0; i < 200; i++) {
    const r = rows[i % rows.length];
    copy.write(out, r, extrasOf(r, i % rows.length));
    want += expectedLine(r, extrasOf(r, i % rows.length), ['c', 'b', '1']);
  }
  const first = out.take();
  t.equal(first.toString('utf8'), want, 'all the lines, as the column list gives them');
  t.equal(out.length, 0, 'empty after take');
  copy.write(out, rows[5], { amortisation: '1', project_labels: '{}', resource_labels: '{"ü":"\\"}' });
  t.equal(first.toString('utf8'), want, 'what was taken is not written over');
  t.match(out.take().toString('utf8'), /\t\{"ü":"\\\\"\}\t/, 'labels escaped, UTF-8');
});
