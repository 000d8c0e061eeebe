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
  // the first row's texts changed, each to one of the same length
  costRow({ provider: 'gcq', project_id: 'p2', project_name: 'Project Two', service: 'Compute Enginf', sku: 'vCPV' }),
];

t.test('each line equals the column list values, in the statement order', async (t) => {
  const copy = costLineCopy({ customerId: 'acme\tcorp', billingAccountId: '01A2B3', batchId: '42' });
  t.equal(copy.sql, `COPY cost_line (${COST_LINE_COPY_COLUMNS.join(', ')}) FROM STDIN`);
  // repeated and interleaved too: the line remembers each column's last escaped value
  for (const i of [0, 1, 2, 3, 2, 2, 0, 4, 0, 3, 3, 1, 4, 4]) {
    const r = rows[i];
    const extras = { amortisation: i === 1 ? '2.25' : '0', project_labels: JSON.stringify(r.project_labels), resource_labels: JSON.stringify(r.resource_labels) };
    const fields = toCopyLine(r).slice(0, -1).split('\t');
    const byName = new Map(COPY_COLUMNS.map(([name], k) => [name, fields[k]]));
    const expected = ['acme\\tcorp', '01A2B3', '42', ...COST_LINE_COPY_COLUMNS.slice(3, -1).map((name) => byName.get(name)), extras.amortisation];
    t.equal(copy.line(r, extras), expected.join('\t') + '\n', `row ${i + 1}`);
  }
});
