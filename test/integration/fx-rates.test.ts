/**
 * Exchange-rate sources: the ECB adapter against an in-process server serving the ECB's file formats (daily XML,
 * zipped history CSV), the nightly fx-rates job storing them with provenance, the fallback to the previous business
 * day over a holiday, a currency the ECB does not quote, the demo rates file, and the admin route loading a rates CSV.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import Decimal from 'decimal.js';
import type { JobFor } from '@cc/shared/queues.ts';
import { parseRatesCsv } from '@cc/shared/billing/fx-csv.ts';
import { rateOn } from '@cc/shared/db/fx-rates.ts';
import { addDays } from '@cc/shared/time.ts';
import { ecbRatesSource, parseEcbXml } from '@cc/shared/adapters/fx-rates/real.ts';
import { DEMO_RATES_FILE, localRatesSource } from '@cc/shared/adapters/fx-rates/local.ts';
import { fxRatesHandler } from '../../workers/src/jobs/fx-rates.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { startEcbServer, dailyXml, type Fixings } from '../fakes/ecb-server.ts';
import { build, login, bearer } from '../helper.ts';

Decimal.set({ precision: 60, rounding: Decimal.ROUND_HALF_UP });

// A fortnight of fixings: weekends absent, and Friday 2024-03-29 and Monday 2024-04-01 (Good Friday, Easter Monday:
// TARGET holidays) absent too. RUB was last quoted on 2024-03-27 (N/A afterwards in the history file).
const fixings: Fixings = new Map<string, Record<string, string>>([
  ['2024-03-25', { USD: '1.0823', GBP: '0.85773', DKK: '7.4582', RUB: '99.9' }],
  ['2024-03-26', { USD: '1.0846', GBP: '0.85845', DKK: '7.4581', RUB: '100.1' }],
  ['2024-03-27', { USD: '1.0830', GBP: '0.85805', DKK: '7.4580', RUB: '100.2' }],
  ['2024-03-28', { USD: '1.0811', GBP: '0.85480', DKK: '7.4578' }],
  ['2024-04-02', { USD: '1.0757', GBP: '0.85500', DKK: '7.4578' }],
  ['2024-04-03', { USD: '1.0793', GBP: '0.85813', DKK: '7.4579' }],
  ['2024-04-04', { USD: '1.0852', GBP: '0.85735', DKK: '7.4582' }],
]);

t.test('parses the ECB daily file as published (single quotes, gesmes envelope)', async (t) => {
  const rates = parseEcbXml(dailyXml('2024-04-04', fixings.get('2024-04-04')!));
  t.same(rates, [
    { currency: 'USD', rate_date: '2024-04-04', rate: '1.0852' },
    { currency: 'GBP', rate_date: '2024-04-04', rate: '0.85735' },
    { currency: 'DKK', rate_date: '2024-04-04', rate: '7.4582' },
  ]);
  t.throws(() => parseEcbXml('<html>maintenance</html>'), /no <Cube time/);
});

t.test('ECB adapter, nightly job and conversion against the fake ECB server', async (t) => {
  const ecb = await startEcbServer(fixings);
  t.teardown(ecb.close);
  const app = await build(t);
  const { pool } = app.env;
  let invalidated = 0;
  const source = ecbRatesSource(ecb.url, () => '2024-04-05');
  const job = (since?: string) =>
    fxRatesHandler({ pool, fxRates: { source, invalidateCharts: async () => void invalidated++ } })({ data: since ? { since } : {} } as JobFor<'fx-rates'>);

  t.test('first run: the zipped history CSV, N/A cells skipped, stored with source ecb', async (t) => {
    const result = (await job('2024-03-01')) as { source: string; saved: number; first: string; last: string };
    t.same(ecb.requests, ['/eurofxref-hist.zip']);
    t.same([result.source, result.saved, result.first, result.last], ['ecb', 7 * 3 + 3, '2024-03-25', '2024-04-04']);
    t.equal(invalidated, 1, 'cached charts dropped');
    const { rows } = await pool.query(`SELECT currency, rate::text AS rate FROM fx_rate WHERE rate_date = '2024-03-28' AND source = 'ecb' ORDER BY currency`);
    t.same(rows, [{ currency: 'DKK', rate: '7.4578' }, { currency: 'GBP', rate: '0.8548' }, { currency: 'USD', rate: '1.0811' }]);
  });

  t.test('a later run: the daily file', async (t) => {
    ecb.requests.length = 0;
    await job('2024-04-04');
    t.same(ecb.requests, ['/eurofxref-daily.xml']);
  });

  t.test('holiday and weekend: the previous business day; cross rates through EUR', async (t) => {
    // Easter Monday 2024-04-01: last fixing Thursday 2024-03-28
    const usd = await rateOn(pool, 'USD', 'EUR', '2024-04-01');
    t.same(usd, { rate: new Decimal(1).div('1.0811').toDecimalPlaces(10).toFixed(10), rate_date: '2024-03-28', source: 'ecb' });
    const cross = await rateOn(pool, 'USD', 'DKK', '2024-03-30');
    t.equal(cross?.rate, new Decimal('7.4578').div('1.0811').toDecimalPlaces(10).toFixed(10), 'USD→DKK = EUR→DKK / EUR→USD');
    t.equal(await rateOn(pool, 'USD', 'EUR', '2024-04-12'), null, 'more than 7 days after the last fixing: no rate');
    t.equal(await rateOn(pool, 'RUB', 'EUR', '2024-04-04'), null, 'no longer quoted: none within 7 days');
  });

  t.test('spend in a currency the ECB does not quote stays unconverted and is named', async (t) => {
    await pool.query(`UPDATE customer SET billing_currency = 'EUR' WHERE customer_id = 'acme-corp'`);
    await app.access.publish(); // a write outside the api: the access epoch moves before the next request (NOTIFY may lag)
    const row = (currency: string, cost: string, day: string) => ({
      provider: 'aws', provider_name: 'AWS', usage_date: day, project_id: 'a1', project_name: 'a1', service: 'EC2', sku: 's',
      cost, credits: '0', currency, invoice_month: null, cost_type: 'usage', project_labels: {}, resource_labels: {},
    });
    const rows = [row('USD', '100.000000000001', '2024-04-01'), row('ARS', '5000', '2024-04-01'), row('USD', '10', '2024-04-03')];
    await runIngest({
      pool, customerId: 'acme-corp', billingAccountId: '01A2B3-C4D5E6-F7A8B9', sourceKind: 'focus-file', fileName: 'x.csv',
      source: { label: 'x', async *rows() { let line = 1; for (const r of rows) yield { line: ++line, row: r }; } },
    });
    const alice = bearer(await login(app, 'alice@acme.example'));
    const res = await app.inject({
      method: 'POST', url: '/v2/billing/aggregated/by_service/chart/acme-corp', headers: alice,
      query: { billing_account_id: '01A2B3-C4D5E6-F7A8B9', provider: 'aws', period: 'CustomizedPeriod', start_date: '2024-03-30', end_date: '2024-04-05' },
      payload: { services: [] },
    });
    t.equal(res.statusCode, 200, res.body.slice(0, 200));
    const body = res.json();
    const want = new Decimal('100.000000000001').times(new Decimal(1).div('1.0811').toDecimalPlaces(10)).plus(new Decimal(10).times(new Decimal(1).div('1.0793').toDecimalPlaces(10)));
    t.equal(body.summary.custom, want.toDecimalPlaces(2).toFixed(2), 'USD converted at each day’s rate, ARS not added');
    t.same(body.conversion.unconverted.map((u: { currency: string; amount: string }) => [u.currency, u.amount]), [['ARS', '5000.00']]);
    t.match(body.conversion.unconverted[0].message, /No ARS to EUR rate .* on 2024-04-01: 5000\.00 ARS is not converted and not included/);
    t.same(body.conversion.converted, [{ currency: 'USD', original: '110.00', amount: body.summary.custom, sources: ['ecb'] }]);
  });

  t.test('admin route loads a rates CSV; others are refused; a bad file is a 400 naming its line', async (t) => {
    const admin = bearer(await login(app, 'admin@commandcenter.local'));
    const alice = bearer(await login(app, 'alice@acme.example'));
    const csv = 'Date,USD,GBP,\n2024-04-05,1.0839,0.85700,\n2024-04-08,1.0854,N/A,\n';
    const ok = await app.inject({ method: 'POST', url: '/v2/billing/fx-rates', headers: admin, payload: { csv } });
    t.equal(ok.statusCode, 200, ok.body);
    t.same(ok.json(), { saved: 3, currencies: ['GBP', 'USD'], first_date: '2024-04-05', last_date: '2024-04-08' });
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM fx_rate WHERE source = 'csv'`);
    t.equal(rows[0].n, 3);
    t.equal((await app.inject({ method: 'POST', url: '/v2/billing/fx-rates', headers: alice, payload: { csv } })).statusCode, 403);
    const bad = await app.inject({ method: 'POST', url: '/v2/billing/fx-rates', headers: admin, payload: { csv: 'Date,USD\n2024-02-30,1.08\n' } });
    t.equal(bad.statusCode, 400);
    t.match(bad.json().detail, /csv line 2: '2024-02-30' is not a date/);
    const eur = await app.inject({ method: 'POST', url: '/v2/billing/fx-rates', headers: admin, payload: { csv: 'Date,EUR\n2024-02-01,1\n' } });
    t.equal(eur.statusCode, 400);
  });
});

t.test('rates CSV parser and the demo rates file', async (t) => {
  t.same(parseRatesCsv('Date,USD,\n2024-01-02,1.0956,\n').rates, [{ currency: 'USD', rate_date: '2024-01-02', rate: '1.0956' }]);
  t.match(parseRatesCsv('Date,USD\n2024-01-02,-1\n').errors, [{ line: 2 }]);
  t.match(parseRatesCsv('Day,USD\n').errors, [{ line: 1 }]);
  const demo = parseRatesCsv(readFileSync(DEMO_RATES_FILE, 'utf8'));
  t.same(demo.errors, []);
  t.same([...new Set(demo.rates.map((r) => r.currency))].sort(), ['DKK', 'GBP', 'USD']);
  const local = localRatesSource('');
  t.equal(local.source, 'demo');
  const since = addDays(demo.rates.map((r) => r.rate_date).sort().at(-1)!, -10);
  t.ok((await local.rates(since)).every((r) => r.rate_date >= since));
});
