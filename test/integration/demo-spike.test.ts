/**
 * make start's demo anomaly (infra/scripts/demo-spike.ts): over a generated history, the judged day gets the spike
 * through the normal ingest, the day keeps its generated rows, a re-run changes nothing, and detection then finds the
 * anomaly that the Anomaly Detection screen asks for (the api answer with the customer's own thresholds).
 */
import t from 'tap';
import type { JobFor } from '@cc/shared/queues.ts';
import { addDays, billingToday } from '@cc/shared/time.ts';
import { gcpGeneratedSource, generatedRowsForDay } from '@cc/shared/adapters/bigquery/local.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { anomalyDetectHandler } from '../../workers/src/jobs/anomaly-detect.ts';
import { addDemoSpikes, DEMO_SPIKE_SKU } from '../../infra/scripts/demo-spike.ts';
import { build, login, bearer } from '../helper.ts';

const ACME = { customerId: 'acme-corp', billingAccountId: '01A2B3-C4D5E6-F7A8B9', currency: 'EUR' };

t.test('the demo spike makes the judged day show an anomaly', async (t) => {
  const app = await build(t);
  const { pool } = app.env;
  const today = billingToday();
  const judged = addDays(today, -2);
  // What make start loads (shortened): generated spend up to yesterday.
  await runIngest({ pool, ...ACME, sourceKind: 'gcp-generated', source: gcpGeneratedSource({ ...ACME, from: addDays(today, -60), to: addDays(today, -1) }) });

  const linesOfDay = async () =>
    (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM cost_line WHERE billing_account_id = $1 AND usage_date = $2', [ACME.billingAccountId, judged]))
      .rows[0].n;
  const generated = generatedRowsForDay(ACME, judged).length;
  t.equal(await linesOfDay(), generated, 'the generated day before the spike');

  const spikes = await addDemoSpikes(pool, today);
  // Only acme-corp has anomaly detection on in the seed: both of its accounts get one.
  t.same(
    spikes.map((s) => [s.customer_id, s.billing_account_id, s.day]),
    [
      ['acme-corp', '01A2B3-C4D5E6-F7A8B9', judged],
      ['acme-corp', '01FFEE-DDCCBB-AA9988', judged],
    ],
  );
  t.equal(await linesOfDay(), generated + 1, 'the day keeps every generated line and gains one');
  await addDemoSpikes(pool, today);
  t.equal(await linesOfDay(), generated + 1, 're-running replaces the day with the same lines');
  const { rows: demo } = await pool.query('SELECT project_id, service FROM cost_line WHERE billing_account_id = $1 AND sku = $2', [
    ACME.billingAccountId,
    DEMO_SPIKE_SKU,
  ]);
  t.same(demo, [{ project_id: 'acmeco-analytics-prod', service: 'BigQuery' }], 'one clearly named line');

  // What seed-billing queues at its end, run in-process: detection of the default (judged) day.
  const result = await anomalyDetectHandler({ pool, enqueue: app.producers.enqueue, publicUrl: 'http://cc.test' })({
    data: {},
  } as JobFor<'anomaly-detect'>);
  t.equal(result.date, judged);

  const token = await login(app, 'alice@acme.example');
  const res = await app.inject({
    method: 'GET',
    url: `/v1/anomalies/customer_id/acme-corp/billing_account_id/${ACME.billingAccountId}/date/${judged}/minimum_anomaly_threshold/20/minimum_value_toggled_anomaly/10`,
    headers: bearer(token),
  });
  t.equal(res.statusCode, 200);
  const found = res.json().anomalies.find((a: { project_id: string; service: string }) => a.project_id === 'acmeco-analytics-prod' && a.service === 'BigQuery');
  t.ok(found, 'the spiked series is an anomaly on the screen');
  t.ok(found.delta_from_mean_cost_perc >= 100, `far above the 20 % threshold (${found.delta_from_mean_cost_perc} %)`);
});
