/**
 * The checks the database no longer makes per line (migration 101: provider and currency are checked on the daily
 * rollups) are made here per row, so a bad value is reported with its line.
 */
import t from 'tap';
import { validateRow } from './row-checks.ts';
import { costRow } from '../../../test/fixtures/cost-row.ts';


t.test('provider ids', async (t) => {
  for (const provider of ['gcp', 'oracle', 'alibaba-cloud', 'x1']) t.equal(validateRow(costRow({ provider })), null, provider);
  for (const provider of ['GCP', 'oracle cloud', '-oracle', 'oracle-', 'a--b', 'über']) {
    // a valid row first, so the last-valid shortcut is set to another id
    validateRow(costRow({}));
    t.equal(validateRow(costRow({ provider })), `invalid provider id '${provider}'`, provider);
  }
});

t.test('currencies', async (t) => {
  t.equal(validateRow(costRow({ currency: 'CHF' })), null);
  for (const currency of ['eur', 'EURO', 'E1R', '']) t.equal(validateRow(costRow({ currency })), `unknown currency '${currency}'`, currency || 'empty');
});

t.test('a text found fine on the last row does not let a bad one through after it', async (t) => {
  t.equal(validateRow(costRow({ sku: 'a' })), null);
  t.equal(validateRow(costRow({ sku: 'a\u0000' })), 'SKU contains a NUL character');
  t.equal(validateRow(costRow({ sku: 'a\u0000' })), 'SKU contains a NUL character', 'refused again');
  t.equal(validateRow(costRow({ sku: 'é'.repeat(257) })), 'SKU is 514 bytes long, the limit is 512');
  t.equal(validateRow(costRow({ sku: 'a' })), null);
  t.equal(validateRow(costRow({ project_id: 'p\u0000' })), 'project id contains a NUL character');
});

t.test('amounts: an amount found fine before is still rewritten, a bad one still refused with its column', async (t) => {
  const names = { cost: 'BilledCost', credits: 'BilledCost', effective_cost: 'EffectiveCost' };
  for (let i = 0; i < 2; i++) {
    const row = costRow({ cost: '0.00000080000', credits: '-2.500', effective_cost: '1.0' });
    t.equal(validateRow(row, undefined, names), null);
    t.same([row.cost, row.credits, row.effective_cost], ['0.0000008', '-2.5', '1'], `rewritten (${i === 0 ? 'first' : 'again'})`);
  }
  t.equal(validateRow(costRow({ cost: '0.00000080000', effective_cost: 'x' }), undefined, names), "EffectiveCost 'x' is not a number");
  t.equal(validateRow(costRow({ cost: '1.0000000000001' }), undefined, names), "BilledCost '1.0000000000001' has more than 12 decimal places");
  t.equal(validateRow(costRow({ credits: '1234567890123' })), "credits '1234567890123' is too large");
  t.equal(validateRow(costRow({ cost: '' })), 'missing cost');
  const none = costRow({ effective_cost: null });
  t.equal(validateRow(none), null);
  t.equal(none.effective_cost, null, 'no amortised figure stays none');
});

t.test('invoice months', async (t) => {
  t.equal(validateRow(costRow({ invoice_month: '202405' })), null);
  for (const invoice_month of ['20245', '2024-05', '２０２４０５', '2024055']) t.equal(validateRow(costRow({ invoice_month })), `invalid invoice month '${invoice_month}'`, invoice_month);
});
