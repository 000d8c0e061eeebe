/**
 * The GCP billing export's own exchange rates: the BigQuery source reads each row's `currency` and
 * `currency_conversion_rate` (units of the row's currency per 1 USD) and the ingest stores them as rates with source
 * 'gcp-export', which win over the ECB's for the days they cover. Against the fake BigQuery REST server, with the
 * export's real column names; the expected rates are computed here with decimal.js.
 */
import t from 'tap';
import Decimal from 'decimal.js';
import { BigQuery } from '@google-cloud/bigquery';
import { OAuth2Client } from 'google-auth-library';
import { bigQuerySource } from '@cc/shared/adapters/bigquery/real.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { rateOn, saveRates } from '@cc/shared/db/fx-rates.ts';
import { testEnv } from '../helper.ts';
import { startFakeBigQuery } from '../fakes/bigquery-server.ts';

Decimal.set({ precision: 60, rounding: Decimal.ROUND_HALF_UP });
const ACME = { customerId: 'acme-corp', billingAccountId: '01A2B3-C4D5E6-F7A8B9' };

const FIELDS = ['usage_date', 'project_id', 'project_name', 'project_labels', 'service', 'sku', 'resource_labels', 'currency', 'currency_conversion_rate', 'invoice_month', 'cost_type', 'cost', 'credits'];
const row = (day: string, sku: string, rate: string | null, cost: string) => [day, 'acme-web', 'Web', '[]', 'Compute Engine', sku, '[]', 'EUR', rate, '202501', 'regular', cost, '0'];
const RESULT = [
  row('2025-01-01', 'Core', '0.912345678', '10.5'),
  row('2025-01-01', 'Ram', '0.912345678', '2.25'),
  // one day's rows disagree: the rate carrying the most cost is the day's
  row('2025-01-02', 'Core', '0.93', '1.00'),
  row('2025-01-02', 'Ram', '0.921', '50.00'),
  // a day without a rate in the export: the ECB's fixing of the day applies
  row('2025-01-03', 'Core', null, '7'),
];
// ECB fixings (USD per 1 EUR) on the same days
const ECB = [
  { currency: 'USD', rate_date: '2025-01-01', rate: '1.0389' },
  { currency: 'USD', rate_date: '2025-01-02', rate: '1.0321' },
  { currency: 'USD', rate_date: '2025-01-03', rate: '1.0299' },
];

t.test('currency_conversion_rate of the export becomes the gcp-export rate of its day', async (t) => {
  const fake = await startFakeBigQuery({ project: 'billing-proj', location: 'EU', fields: FIELDS, rows: RESULT, pageSize: 2 });
  t.teardown(() => fake.close());
  const { pool } = await testEnv(t);
  await saveRates(pool, 'ecb', ECB);
  const authClient = new OAuth2Client();
  authClient.setCredentials({ access_token: 'fake-token', expiry_date: Date.now() + 3_600_000 });
  const client = new BigQuery({ projectId: 'billing-proj', apiEndpoint: fake.url, authClient });
  const source = bigQuerySource({ client, dataset: 'billing-proj.billing_export', location: 'EU', ...ACME, from: '2025-01-01', to: '2025-01-03' });
  const summary = await runIngest({ pool, ...ACME, sourceKind: 'bigquery', source });
  t.equal(summary.rows, 5);
  t.same(fake.unexpected, []);
  const query = String((fake.queries[0] as { query: string }).query);
  t.match(query, /CAST\(currency_conversion_rate AS NUMERIC\)/, 'reads the export column currency_conversion_rate');
  t.match(query, /GROUP BY [^`]*currency_conversion_rate/, 'rows of different rates stay apart');

  // stored as USD per 1 EUR (the table's quotation): 1 / (EUR per USD), 12 decimals
  const usdPerEur = (eurPerUsd: string) => new Decimal(1).div(eurPerUsd).toDecimalPlaces(12);
  const { rows } = await pool.query(`SELECT currency, rate_date::text AS rate_date, rate::text AS rate FROM fx_rate WHERE source = 'gcp-export' ORDER BY rate_date`);
  t.same(
    rows.map((r) => ({ ...r, rate: new Decimal(r.rate).toString() })),
    [
      { currency: 'USD', rate_date: '2025-01-01', rate: usdPerEur('0.912345678').toString() },
      { currency: 'USD', rate_date: '2025-01-02', rate: usdPerEur('0.921').toString() },
    ],
    'one rate per covered day, the heaviest on a day of two',
  );

  // converting EUR spend into USD: the export's rate on the days it covers, the ECB's otherwise
  const want = (leg: Decimal) => leg.div(1).toDecimalPlaces(10).toString();
  const jan1 = await rateOn(pool, 'EUR', 'USD', '2025-01-01');
  t.same({ ...jan1, rate: new Decimal(jan1!.rate).toString() }, { rate: want(usdPerEur('0.912345678')), rate_date: '2025-01-01', source: 'gcp-export' });
  const jan3 = await rateOn(pool, 'EUR', 'USD', '2025-01-03');
  t.same({ ...jan3, rate: new Decimal(jan3!.rate).toString() }, { rate: '1.0299', rate_date: '2025-01-03', source: 'ecb' }, 'a day the export does not cover');
  const back = await rateOn(pool, 'USD', 'EUR', '2025-01-02');
  t.equal(new Decimal(back!.rate).toString(), new Decimal(1).div(usdPerEur('0.921')).toDecimalPlaces(10).toString(), 'USD to EUR through the same leg');
  t.equal(back!.source, 'gcp-export');

  // a second ingest of the same window stores the same rates again, not twice
  await runIngest({ pool, ...ACME, sourceKind: 'bigquery', source: bigQuerySource({ client, dataset: 'billing-proj.billing_export', location: 'EU', ...ACME, from: '2025-01-01', to: '2025-01-03' }) });
  t.equal((await pool.query(`SELECT count(*)::int AS n FROM fx_rate WHERE source = 'gcp-export'`)).rows[0].n, 2);
});

t.test('the fake refuses a column the query does not select, as BigQuery does', async (t) => {
  const fake = await startFakeBigQuery({ project: 'billing-proj', location: 'EU', fields: [...FIELDS, 'exchange_rate'], rows: [], pageSize: 2 });
  t.teardown(() => fake.close());
  const { pool } = await testEnv(t);
  const authClient = new OAuth2Client();
  authClient.setCredentials({ access_token: 'fake-token', expiry_date: Date.now() + 3_600_000 });
  const client = new BigQuery({ projectId: 'billing-proj', apiEndpoint: fake.url, authClient });
  const source = bigQuerySource({ client, dataset: 'billing-proj.billing_export', location: 'EU', ...ACME, from: '2025-01-01', to: '2025-01-03' });
  await t.rejects(runIngest({ pool, ...ACME, sourceKind: 'bigquery', source }), /Unrecognized name: exchange_rate/);
});
