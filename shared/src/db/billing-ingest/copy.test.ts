/**
 * costLineCopy writes its lines field by field (for speed) rather than from the column list: each line must still be
 * what the column list's own values give, escapes and NULLs included, in the order its COPY statement names.
 */
import t from 'tap';
import type { CostRow } from '../../ports/billing-source.ts';
import { COPY_COLUMNS, COST_LINE_COPY_COLUMNS, costLineCopy, toCopyLine } from './copy.ts';
import { costRow } from '../../../../test/fixtures/cost-row.ts';


const rows: CostRow[] = [
  costRow({}),
  costRow({ invoice_month: null, cost_type: null, resource_id: undefined, project_labels: {}, effective_cost: '3', correction: true }),
  costRow({ provider_name: 'Tab\there', project_name: 'line\nbreak', service: 'back\\slash', sku: 'cr\rlf', resource_id: 'a\tb' }),
  costRow({ project_labels: { 'quote"d': 'back\\slash', nl: 'a\nb' }, resource_labels: { tab: 'x\ty' } }),
];

t.test('each line equals the column list values, in the statement order', async (t) => {
  const copy = costLineCopy({ customerId: 'acme\tcorp', billingAccountId: '01A2B3', batchId: '42' });
  t.equal(copy.sql, `COPY cost_line (${COST_LINE_COPY_COLUMNS.join(', ')}) FROM STDIN`);
  for (const [i, r] of rows.entries()) {
    const extras = { amortisation: i === 1 ? '2.25' : '0', project_labels: JSON.stringify(r.project_labels), resource_labels: JSON.stringify(r.resource_labels) };
    const fields = toCopyLine(r).slice(0, -1).split('\t');
    const byName = new Map(COPY_COLUMNS.map(([name], k) => [name, fields[k]]));
    const expected = ['acme\\tcorp', '01A2B3', '42', ...COST_LINE_COPY_COLUMNS.slice(3, -1).map((name) => byName.get(name)), extras.amortisation];
    t.equal(copy.line(r, extras), expected.join('\t') + '\n', `row ${i + 1}`);
  }
});
