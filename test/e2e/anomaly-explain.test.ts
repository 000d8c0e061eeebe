/**
 * An explained anomaly in Chromium: generated GCP spend with a new SKU on the judged day and the project created by
 * provisioning the day before; the row of the Anomaly Detection screen opens a side panel (full screen on a phone)
 * with the sentence, the drivers and the event. A viewer outside the project's filter never sees the row.
 * Screenshots: test-results/screenshots/anomaly-explain-*.png.
 */
import t from 'tap';
import type { Page } from 'playwright-core';
import type { BillingSource, CostRow } from '@cc/shared/ports/billing-source.ts';
import type { JobFor } from '@cc/shared/queues.ts';
import { addDays, billingToday } from '@cc/shared/time.ts';
import { gcpGeneratedSource } from '@cc/shared/adapters/bigquery/local.ts';
import { runIngest } from '../../workers/src/billing-ingest/ingest.ts';
import { anomalyDetectHandler } from '../../workers/src/jobs/anomaly-detect.ts';
import { SCREENSHOT_DIR, signIn, startProduct } from './harness.ts';

const ACME = { customerId: 'acme-corp', billingAccountId: '01A2B3-C4D5E6-F7A8B9' };
const PROJECT = 'acmeco-analytics-prod';
const SERVICE = 'BigQuery';
const DAY = addDays(billingToday(), -2);

/** 60 days of generated spend up to DAY, plus a SKU the project never had, on DAY. */
function spikedSource(): BillingSource {
  const generated = gcpGeneratedSource({ ...ACME, currency: 'EUR', from: addDays(DAY, -60), to: DAY });
  const spike: CostRow = {
    provider: 'gcp',
    provider_name: 'Google Cloud',
    usage_date: DAY,
    project_id: PROJECT,
    project_name: 'Analytics (prod)',
    service: SERVICE,
    sku: 'BI Engine Capacity',
    cost: '1250.000000',
    credits: '0.000000',
    currency: 'EUR',
    invoice_month: DAY.slice(0, 4) + DAY.slice(5, 7),
    cost_type: 'regular',
    project_labels: { team: 'analytics', env: 'prod', 'cost-center': 'cc-410' },
    resource_labels: { component: 'warehouse', app: 'dashboards' },
  };
  return {
    label: 'generated GCP export with a new SKU',
    window: generated.window,
    async *rows() {
      let line = 0;
      for await (const item of generated.rows()) {
        line = item.line;
        yield item;
      }
      yield { line: line + 1, row: spike };
    },
  };
}

const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOT_DIR}/anomaly-explain-${name}.png`, fullPage: true });

t.test('an anomaly explains itself on the screen, on a desktop and on a phone', async (t) => {
  const { base, browser, app } = await startProduct(t);
  const { pool } = app.env;
  await runIngest({ pool, ...ACME, sourceKind: 'gcp-generated', source: spikedSource() });
  await pool.query(
    `INSERT INTO project_request (customer_id, requester, bu, product, env, owner_value, template_name, folder_name, folder_number, project_type,
                                  project_template, project_name, state, created_at, completed_at)
     VALUES ($1, 'alice@acme.example', 'bu', 'analytics', 'prod', 'o', 'analytics', 'f', '1', 'standard', '{}', $2, 'Active',
             ($3::date - 1 + time '10:00') AT TIME ZONE 'America/Los_Angeles', ($3::date - 1 + time '10:05') AT TIME ZONE 'America/Los_Angeles')`,
    [ACME.customerId, PROJECT, DAY],
  );
  await anomalyDetectHandler({ pool, enqueue: app.producers.enqueue, publicUrl: base })({ data: { customer_id: ACME.customerId, date: DAY } } as JobFor<'anomaly-detect'>);
  const { rows } = await pool.query(`SELECT flagged, to_date_cost::float8 AS day, mean_cost::float8 AS mean FROM anomaly WHERE project_id = $1 AND service = $2 AND date = $3`, [PROJECT, SERVICE, DAY]);
  t.match(rows, [{ flagged: true }], 'the new SKU made an anomaly');

  for (const [name, viewport] of [['desktop', { width: 1400, height: 1000 }], ['phone', { width: 390, height: 844 }]] as const) {
    t.test(name, async (t) => {
      const context = await browser.newContext({ viewport });
      t.teardown(() => context.close());
      const page = await context.newPage();
      await signIn(page, base, 'alice@acme.example');
      await page.getByRole('button', { name: 'Sign In', exact: true }).waitFor({ state: 'detached' });
      await page.goto(`${base}/anomalydetection`);
      const row = page.getByRole('row').filter({ hasText: PROJECT }).filter({ hasText: SERVICE });
      await row.waitFor().catch(async (e: unknown) => {
        await shot(page, `${name}-failed`);
        throw e;
      });
      await row.click();
      const panel = page.getByRole('dialog');
      const body = panel.getByTestId('anomaly-explanation');
      await body.waitFor();
      const text = await body.innerText();
      t.match(text, /against a 28-day mean of .* of the rise is SKU 'BI Engine Capacity' \(new SKU, not in the 28-day baseline\); project acmeco-analytics-prod was created from template 'analytics' the day before\./);
      t.match(text, /SKUs\n/);
      t.match(text, /BI Engine Capacity \(new\)/);
      t.match(text, /Rest/);
      t.ok(await panel.getByRole('link', { name: "project acmeco-analytics-prod was created from template 'analytics'" }).isVisible(), 'the event links to provisioning');
      const box = await panel.boundingBox();
      t.ok(box && box.width <= viewport.width, `the panel fits the ${viewport.width} px screen`);
      const overflow = await body.evaluate((el) => el.scrollWidth > el.clientWidth);
      t.notOk(overflow, 'no text runs off the side');
      // the dialog slides in: the picture is of the panel as it rests, not half-way through its animation
      await panel.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
      await shot(page, name);
      await page.keyboard.press('Escape');
      await body.waitFor({ state: 'detached' });
      t.pass('Escape closes the panel');
    });
  }
});
