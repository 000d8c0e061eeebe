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
