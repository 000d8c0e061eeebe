/**
 * The checks the database no longer makes per line (migration 101: provider and currency are checked on the daily
 * rollups) are made here per row, so a bad value is reported with its line.
 */
import t from 'tap';
import type { CostRow } from '@cc/shared/ports/billing-source.ts';
import { validateRow } from './row-checks.ts';

const row = (over: Partial<CostRow>): CostRow => ({
  provider: 'gcp',
  provider_name: 'Google Cloud',
  usage_date: '2026-04-02',
  project_id: 'p1',
  project_name: 'Project One',
  service: 'Compute Engine',
  sku: 'vCPU',
  cost: '1.5',
  credits: '0',
  currency: 'EUR',
  invoice_month: '202604',
  cost_type: 'regular',
  project_labels: {},
  resource_labels: {},
  ...over,
});

t.test('provider ids', async (t) => {
  for (const provider of ['gcp', 'oracle', 'alibaba-cloud', 'x1']) t.equal(validateRow(row({ provider })), null, provider);
  for (const provider of ['GCP', 'oracle cloud', '-oracle', 'oracle-', 'a--b', 'über']) {
    // a valid row first, so the last-valid shortcut is set to another id
    validateRow(row({}));
    t.equal(validateRow(row({ provider })), `invalid provider id '${provider}'`, provider);
  }
});

t.test('currencies', async (t) => {
  t.equal(validateRow(row({ currency: 'CHF' })), null);
  for (const currency of ['eur', 'EURO', 'E1R', '']) t.equal(validateRow(row({ currency })), `unknown currency '${currency}'`, currency || 'empty');
});
