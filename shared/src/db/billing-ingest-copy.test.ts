/**
 * costLineCopy writes its lines field by field (for speed) rather than from the column list: each line must still be
 * what the column list's own values give, escapes and NULLs included, in the order its COPY statement names.
 */
import t from 'tap';
import type { CostRow } from '../ports/billing-source.ts';
import { COPY_COLUMNS, COST_LINE_COPY_COLUMNS, costLineCopy, toCopyLine } from './billing-ingest.ts';

const row = (over: Partial<CostRow>): CostRow => ({
  provider: 'gcp',
  provider_name: 'Google Cloud',
  usage_date: '2026-04-02',
  project_id: 'p1',
  project_name: 'Project One',
  service: 'Compute Engine',
  sku: 'vCPU',
  cost: '1.000000000001',
  credits: '-0.25',
  currency: 'EUR',
  invoice_month: '202604',
  cost_type: 'regular',
  project_labels: { team: 'web' },
  resource_labels: {},
  resource_id: 'vm-1',
  ...over,
});

const rows: CostRow[] = [
  row({}),
  row({ invoice_month: null, cost_type: null, resource_id: undefined, project_labels: {}, effective_cost: '3', correction: true }),
  row({ provider_name: 'Tab\there', project_name: 'line\nbreak', service: 'back\\slash', sku: 'cr\rlf', resource_id: 'a\tb' }),
  row({ project_labels: { 'quote"d': 'back\\slash', nl: 'a\nb' }, resource_labels: { tab: 'x\ty' } }),
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
