/**
 * Anomalies that explain themselves, on lines loaded by the real ingest: FOCUS files (USD and EUR rows on one series,
 * credits, a correction file) and the GCP billing export (through the BigQuery adapter against its fake). Proves that
 * listed contributors + rest = rise exactly (stored decimals and the shown 2-decimal figures), that the rest is what
 * the unlisted lines add (worked out here from cost_line, apart from the code under test), the kind of the top SKU,
 * the events around the day, and that a viewer sees only what his filter admits.
 */
import t from 'tap';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BigQuery } from '@google-cloud/bigquery';
import { OAuth2Client } from 'google-auth-library';
import type { JobFor } from '@cc/shared/queues.ts';
import type { Pool } from '@cc/shared/db/pool.ts';
import { addDays } from '@cc/shared/time.ts';
import { fileSha256 } from '@cc/shared/commands/billing-ingest.ts';
import { bigQuerySource } from '@cc/shared/adapters/bigquery/real.ts';
import { anomalyDetectHandler } from '../../workers/src/jobs/anomaly-detect.ts';
import { focusCsvSource } from '../../workers/src/billing-ingest/formats/focus-csv.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { Queue } from 'bullmq';
import { build, login, bearer } from '../helper.ts';
import { REDIS_URL } from '../db.ts';
import { startFakeBigQuery } from '../fakes/bigquery-server.ts';

const ACME = { customerId: 'acme-corp', billingAccountId: '01A2B3-C4D5E6-F7A8B9' };
const DAY = '2026-10-28';
const FIRST = addDays(DAY, -28);
const days = Array.from({ length: 29 }, (_, i) => addDays(FIRST, i));
/** USD per EUR (ECB convention), one rate a day so each day converts at its own. */
const usdRate = (d: string) => (1.08 + (Number(d.slice(8)) % 5) / 100).toFixed(4);

const FOCUS_HEADER = ['BilledCost', 'EffectiveCost', 'BillingCurrency', 'BillingPeriodStart', 'ChargeCategory', 'ChargeClass', 'ChargePeriodStart',
  'ProviderName', 'ServiceName', 'SubAccountId', 'SubAccountName', 'SkuId', 'ResourceId', 'Tags', 'ConsumedQuantity'];
const quote = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
const csv = (rows: string[][]) => rows.map((r) => r.map(quote).join(',')).join('\n') + '\n';

/** One FOCUS row of acme-aws-prod / Amazon EC2 on day d. */
function focus(d: string, o: { cost: string; currency?: string; category?: string; correction?: boolean; sku: string; resource: string; tags?: object; qty?: string }) {
  return [o.cost, o.cost, o.currency ?? 'USD', `${d.slice(0, 8)}01T00:00:00Z`, o.category ?? 'Usage', o.correction ? 'Correction' : '', `${d}T12:00:00Z`,
    'Amazon Web Services', 'Amazon EC2', 'acme-aws-prod', 'AWS production', o.sku, o.resource, JSON.stringify(o.tags ?? {}), o.qty ?? ''];
}

function focusRows(): { export: string[][]; correction: string[][] } {
  const rows: string[][] = [];
  for (const d of days) {
    const judged = d === DAY;
    // usage x4 of one instance type on the judged day, same unit price (0.8333 USD an hour)
    rows.push(focus(d, { cost: judged ? '80.000000' : '20.000000', sku: 'BoxUsage:m5.xlarge', resource: 'i-0a1b', tags: { env: 'prod' }, qty: judged ? '96' : '24' }));
    // storage with a daily credit that stops on the judged day
    rows.push(focus(d, { cost: '5.123456789', sku: 'EBS:VolumeUsage.gp3', resource: 'vol-9f', tags: { env: 'prod' }, qty: '100' }));
    if (!judged) rows.push(focus(d, { cost: '-1.000000001', category: 'Credit', sku: 'EBS:VolumeUsage.gp3', resource: 'vol-9f', tags: { env: 'prod' } }));
    // support billed in EUR on the same series: two currencies, one converted day by day
    rows.push(focus(d, { cost: '3.33', currency: 'EUR', sku: 'Support', resource: '', qty: '1' }));
    rows.push(focus(d, { cost: '2.5', sku: 'BoxUsage:t3.small', resource: 'i-0c3d', tags: { env: 'dev' }, qty: '24' }));
  }
  // late-arriving usage for the judged day, in a correction file (appended, not replacing)
  const correction = [focus(DAY, { cost: '7.777777777', correction: true, sku: 'BoxUsage:m5.xlarge', resource: 'i-0a1b', tags: { env: 'prod' }, qty: '9.333333333' })];
  return { export: rows, correction };
}

const GCP_FIELDS = ['usage_date', 'project_id', 'project_name', 'project_labels', 'service', 'sku', 'resource_labels', 'currency', 'invoice_month', 'cost_type', 'cost', 'credits'];
function gcpRows(): (string | null)[][] {
  const rows: (string | null)[][] = [];
  const labels = '[{"key":"team","value":"analytics"}]';
  for (const d of days) {
    const judged = d === DAY;
    const month = d.slice(0, 7).replace('-', '');
    rows.push([d, 'acme-analytics', 'Analytics', labels, 'Compute Engine', 'N2 Instance Core', '[{"key":"app","value":"etl"}]', 'EUR', month, 'regular', '12.345678901', '-2.000000001']);
    rows.push([d, 'acme-analytics', 'Analytics', labels, 'Compute Engine', 'N2 Instance Ram', '[{"key":"app","value":"etl"}]', 'EUR', month, 'regular', '4.1', '0']);
    // a SKU first seen on the judged day, under a label value of its own
    if (judged) rows.push([d, 'acme-analytics', 'Analytics', labels, 'Compute Engine', 'N2 Custom Extended Memory', '[{"key":"app","value":"ml-train"}]', 'EUR', month, 'regular', '61.5', '-0.25']);
  }
  // a correction row of the export: cost moved between SKUs on an earlier day (negative on one, positive on the other)
  rows.push([addDays(DAY, -3), 'acme-analytics', 'Analytics', labels, 'Compute Engine', 'N2 Instance Ram', '[]', 'EUR', '202610', 'adjustment', '-1.1', '0']);
  rows.push([addDays(DAY, -3), 'acme-analytics', 'Analytics', labels, 'Compute Engine', 'N2 Instance Core', '[]', 'EUR', '202610', 'adjustment', '1.1', '0']);
  return rows;
}

const runDetection = (app: Awaited<ReturnType<typeof build>>) =>
  anomalyDetectHandler({ pool: app.env.pool, enqueue: app.producers.enqueue, publicUrl: 'http://cc.test' })({ data: { customer_id: ACME.customerId, date: DAY } } as JobFor<'anomaly-detect'>);

const explanationUrl = (project: string, service: string, account = ACME.billingAccountId) =>
  `/v1/anomalies/customer_id/${ACME.customerId}/billing_account_id/${account}/date/${DAY}/project_id/${encodeURIComponent(project)}/service/${encodeURIComponent(service)}/explanation`;

/** Stored contributors of an anomaly: listed + rest = rise per dimension, compared as exact decimals in PostgreSQL. */
async function exactSums(pool: Pool, project: string) {
  const { rows } = await pool.query<{ dimension: string; listed: number; rise: string; total: string; exact: boolean }>(
    `SELECT c.dimension, count(*) FILTER (WHERE c.rank > 0)::int AS listed, (x.to_date_cost - x.mean_cost)::text AS rise, sum(c.contribution)::text AS total,
            sum(c.contribution) = x.to_date_cost - x.mean_cost AS exact
       FROM anomaly x JOIN anomaly_contributor c ON c.anomaly_id = x.id
      WHERE x.project_id = $1 AND x.date = $2 GROUP BY c.dimension, x.to_date_cost, x.mean_cost ORDER BY c.dimension`,
    [project, DAY],
  );
  return rows;
}

/**
 * Each SKU's contribution worked out here from the lines (day spend minus baseline mean, each day at its rate), with
 * the series' first day as the detection's baseline start: the listed ones must match, and the unlisted ones add up
 * to the stored rest.
 */
async function skuFromLines(pool: Pool, project: string) {
  const { rows } = await pool.query<{ sku: string; contribution: string }>(
    `WITH l AS (
       SELECT l.sku, l.usage_date, (l.cost + l.credits) * CASE WHEN l.currency = 'EUR' THEN 1 ELSE 1 / f.rate END AS spend
         FROM cost_line l LEFT JOIN fx_rate f ON f.currency = l.currency AND f.rate_date = l.usage_date
        WHERE l.billing_account_id = $1 AND l.project_id = $2 AND l.usage_date BETWEEN $3::date - 28 AND $3::date
     ), first AS (SELECT min(usage_date) AS d FROM l WHERE usage_date < $3::date)
     SELECT sku, (coalesce(sum(spend) FILTER (WHERE usage_date = $3::date), 0)
                  - coalesce(sum(spend) FILTER (WHERE usage_date < $3::date), 0) / ($3::date - (SELECT d FROM first)))::text AS contribution
       FROM l GROUP BY sku ORDER BY sku`,
    [ACME.billingAccountId, project, DAY],
  );
  return rows;
}

t.test('contributors from real FOCUS and GCP lines add up to the rise, with kind, events and the viewer filter', async (t) => {
  const app = await build(t);
  const { pool } = app.env;
  for (const d of days) await pool.query(`INSERT INTO fx_rate (currency, rate_date, rate, source) VALUES ('USD', $1, $2, 'ecb')`, [d, usdRate(d)]);

  const dir = await mkdtemp(join(tmpdir(), 'cc-explain-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const files = focusRows();
  for (const [name, rows] of [['aws-export.csv', files.export], ['aws-correction.csv', files.correction]] as const) {
    const path = join(dir, name);
    await writeFile(path, csv([FOCUS_HEADER, ...rows]));
    await runIngest({ pool, ...ACME, sourceKind: 'focus-file', source: focusCsvSource(path), fileName: name, fileHash: await fileSha256(path) });
  }
  const fake = await startFakeBigQuery({ project: 'billing-proj', location: 'EU', fields: GCP_FIELDS, rows: gcpRows(), pageSize: 100, job: 'inline' });
  t.teardown(() => fake.close());
  const authClient = new OAuth2Client();
  authClient.setCredentials({ access_token: 'fake-token', expiry_date: Date.now() + 3_600_000 });
  const client = new BigQuery({ projectId: 'billing-proj', apiEndpoint: fake.url, authClient });
  await runIngest({ pool, ...ACME, sourceKind: 'bigquery', source: bigQuerySource({ client, dataset: 'billing-proj.billing_export', location: 'EU', ...ACME, from: FIRST, to: DAY }) });
  t.same(fake.unexpected, []);
  const { rows: quantities } = await pool.query(`SELECT count(*)::int AS n FROM cost_line WHERE project_id = 'acme-aws-prod' AND usage_quantity IS NOT NULL`);
  t.equal(quantities[0].n, 29 * 4 + 1, 'FOCUS ConsumedQuantity is loaded on every usage line (credits carry none)');

  // events around the day: the analytics project created the day before, a license order that day
  await pool.query(
    `INSERT INTO project_request (customer_id, requester, bu, product, env, owner_value, template_name, folder_name, folder_number, project_type,
                                  project_template, project_name, state, created_at, completed_at)
     VALUES ('acme-corp', 'alice@acme.example', 'bu', 'pr', 'prod', 'o', 'analytics', 'f', '1', 'standard', '{}', 'acme-analytics', 'Active',
             ($1::date - 1 + time '10:00') AT TIME ZONE 'America/Los_Angeles', ($1::date - 1 + time '10:05') AT TIME ZONE 'America/Los_Angeles')`,
    [DAY],
  );
  await pool.query(`INSERT INTO license (customer_id, sku_id, sku_name) VALUES ('acme-corp', '1010020020', 'Google Workspace Enterprise Plus') ON CONFLICT DO NOTHING`);
  await pool.query(
    `INSERT INTO license_order (customer_id, sku_id, sku_name, order_amount, order_by, comment, status, order_time)
     VALUES ('acme-corp', '1010020020', 'Google Workspace Enterprise Plus', 5, 'alice@acme.example', '', 'Pending', ($1::date + time '09:00') AT TIME ZONE 'America/Los_Angeles')`,
    [DAY],
  );

  const result = (await runDetection(app)) as { runs: { billing_account_id: string; flagged: number }[] };
  t.ok(result.runs.find((r) => r.billing_account_id === ACME.billingAccountId)!.flagged >= 2, 'both series flagged');

  t.test('stored: listed + rest = rise exactly, per dimension, on FOCUS (USD + EUR, credits, correction) and GCP lines', async (t) => {
    for (const project of ['acme-aws-prod', 'acme-analytics']) {
      const sums = await exactSums(pool, project);
      t.same(sums.map((s) => s.dimension), ['label', 'resource', 'sku'], `${project}: three dimensions`);
      for (const s of sums) t.ok(s.exact, `${project} ${s.dimension}: ${s.listed} listed + rest = ${s.total} = rise ${s.rise}`);
    }
  });

  t.test('the listed SKUs are what their lines add, and the rest is what the unlisted lines add', async (t) => {
    for (const project of ['acme-aws-prod', 'acme-analytics']) {
      const fromLines = await skuFromLines(pool, project);
      const { rows: stored } = await pool.query<{ value: string | null; contribution: string }>(
        `SELECT c.value, c.contribution::text FROM anomaly x JOIN anomaly_contributor c ON c.anomaly_id = x.id
          WHERE x.project_id = $1 AND x.date = $2 AND c.dimension = 'sku' ORDER BY c.rank`,
        [project, DAY],
      );
      const listed = stored.filter((s) => s.value !== null);
      const rest = stored.find((s) => s.value === null)!;
      for (const s of listed) {
        const mine = fromLines.find((f) => f.sku === s.value)!;
        t.ok(Math.abs(Number(mine.contribution) - Number(s.contribution)) < 1e-9, `${project} ${s.value}: ${s.contribution} ≈ ${mine.contribution} from the lines`);
      }
      const unlisted = fromLines.filter((f) => !listed.some((s) => s.value === f.sku)).reduce((a, f) => a + Number(f.contribution), 0);
      t.ok(Math.abs(unlisted - Number(rest.contribution)) < 1e-9, `${project} rest ${rest.contribution} ≈ ${unlisted} (unlisted lines; differs only by the mean's 12th decimal)`);
    }
  });

  const alice = await login(app, 'alice@acme.example');
  const get = (url: string, token = alice) => app.inject({ method: 'GET', url, headers: bearer(token) });
  const cents = (v: number) => Math.round(v * 100);

  t.test('the answer: shown contributions + rest = shown rise to the cent, kind, lead and sentence', async (t) => {
    const aws = (await get(explanationUrl('acme-aws-prod', 'Amazon EC2'))).json();
    t.equal(aws.currency, 'EUR');
    for (const dim of ['sku', 'resource', 'label']) {
      const c = aws.contributors.filter((x: { dimension: string }) => x.dimension === dim);
      t.equal(c.reduce((a: number, x: { contribution: number }) => a + cents(x.contribution), 0), cents(aws.rise), `${dim}: shown figures add up`);
    }
    t.match(aws.lead, { dimension: 'sku', name: 'BoxUsage:m5.xlarge' });
    t.equal(aws.kind, 'usage');
    t.match(aws.kind_text, /^usage ×4\.\d, unit price unchanged$/);
    t.match(aws.sentence, /^\d+\.\d{2} EUR on 2026-10-28 against a 28-day mean of \d+\.\d{2} EUR \(\+\d+ %, above the 20 % and 10 EUR thresholds\); \d+ % of the rise is SKU 'BoxUsage:m5\.xlarge' \(usage ×4\.\d, unit price unchanged\), mostly on resource i-0a1b; correction file aws-correction\.csv was added to that day on \d{4}-\d{2}-\d{2}\.$/);
    t.match(aws.events, [{ kind: 'license_order_placed', link: '/workspacelicense' }, { kind: 'billing_file' }, { kind: 'billing_correction' }]);
    t.ok(aws.events.some((e: { text: string }) => e.text === 'correction file aws-correction.csv was added to that day'), 'the correction file is listed');

    const gcp = (await get(explanationUrl('acme-analytics', 'Compute Engine'))).json();
    t.match(gcp.lead, { dimension: 'sku', name: 'N2 Custom Extended Memory' });
    t.equal(gcp.kind, 'new');
    t.match(gcp.sentence, /of the rise is SKU 'N2 Custom Extended Memory' \(new SKU, not in the 28-day baseline\); project acme-analytics was created from template 'analytics' the day before\.$/);
    const label = gcp.contributors.find((c: { dimension: string; rank: number }) => c.dimension === 'label' && c.rank === 1);
    t.match(label, { label_key: 'app', value: 'ml-train', in_baseline: false });
  });

  t.test('the e-mail says why, in the same sentence', async (t) => {
    const queue = new Queue('notify', { connection: { url: REDIS_URL }, prefix: app.env.config.QUEUE_PREFIX });
    t.teardown(() => queue.close());
    const jobs = await queue.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed']);
    const mail = jobs.map((j) => j.data as { text: string; html: string }).find((d) => d.text.includes('acme-aws-prod'));
    t.ok(mail, 'the notice was enqueued');
    const aws = (await get(explanationUrl('acme-aws-prod', 'Amazon EC2'))).json();
    const gcp = (await get(explanationUrl('acme-analytics', 'Compute Engine'))).json();
    t.match(mail!.text, `  Why: ${aws.sentence}`);
    t.match(mail!.text, `  Why: ${gcp.sentence}`);
    t.match(mail!.html, /<tr><td colspan="5">Why: [^<]+ of the rise is SKU &#39;N2 Custom Extended Memory&#39;/);
    t.comment(`the e-mail's text:\n${mail!.text}`);
  });

  t.test('a viewer: contributors of his projects only, and no events about the whole customer', async (t) => {
    const victor = await login(app, 'victor@acme.example');
    const refused = await get(explanationUrl('acme-aws-prod', 'Amazon EC2'), victor);
    t.equal(refused.statusCode, 404);
    t.same(refused.json(), { detail: 'Anomaly not found' });
    const own = await get(explanationUrl('acme-analytics', 'Compute Engine'), victor);
    t.equal(own.statusCode, 200);
    t.same(own.json().events.map((e: { kind: string }) => e.kind), ['project_created'], 'the project event, not the license order');
    const alices = (await get(explanationUrl('acme-analytics', 'Compute Engine'))).json();
    t.ok(alices.events.some((e: { kind: string }) => e.kind === 'license_order_placed'), 'alice sees the license order');
  });

  t.test('bad input and unknown anomalies', async (t) => {
    const bad = await get(explanationUrl('acme-aws-prod', 'Amazon EC2').replace(DAY, '2026-02-30'));
    t.equal(bad.statusCode, 400);
    t.same(bad.json(), { detail: 'Invalid date, expected YYYY-MM-DD' });
    const none = await get(explanationUrl('acme-aws-prod', 'Nothing'));
    t.equal(none.statusCode, 404);
    t.same(none.json(), { detail: 'Anomaly not found' });
    const other = await get(explanationUrl('acme-aws-prod', 'Amazon EC2', '02B3C4-D5E6F7-A8B9C0'));
    t.same(other.json(), { detail: 'Billing account not found' });
  });
});
