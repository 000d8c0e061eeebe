/**
 * A project the local cloud created joins the customer's demo estate: the billing generator bills it
 * from the day after it became Active, under the account it was linked to, and the local inventory lists it.
 */
import t from 'tap';
import { approveProjectRequests, createProjectRequest, findProvisioningChoices, listProvisionedForBilling } from '@cc/shared/db/provisioning.ts';
import { checkNewProject, type ProjectTemplate } from '@cc/shared/provisioning/rules.ts';
import { runProvisioning } from '../../workers/src/provisioning/run-chain.ts';
import { localProvisioning } from '@cc/shared/adapters/provisioning/local.ts';
import { localInventorySource } from '@cc/shared/adapters/inventory/local.ts';
import { ingestCommand } from '../../workers/src/billing-ingest/command.ts';
import { testEnv } from '../helper.ts';

const PROJECT = 'acme-finance-ledger-prod';
const ACCOUNT = '01A2B3-C4D5E6-F7A8B9';

t.test('a provisioned project is billed by the generator from the next day and is in the local inventory', async (t) => {
  const { pool } = await testEnv(t);
  const choices = (await findProvisioningChoices(pool, 'acme-corp'))!;
  const checked = checkNewProject(
    { bu: 'finance', product: 'ledger', env: 'prod', owner_value: 'alice', template_name: 'Standard analytics project' },
    { ...choices, project_provisioning: choices.project_provisioning as ProjectTemplate[] },
  );
  const request = await createProjectRequest(pool, { customerId: 'acme-corp', requester: 'alice@acme.example', checked });
  t.same(await listProvisionedForBilling(pool, 'acme-corp', ACCOUNT), [], 'nothing before it exists');
  await approveProjectRequests(pool, 'acme-corp', [request.id], 'admin@commandcenter.local');
  const done = await runProvisioning({ pool, cloud: localProvisioning(pool, { operationDelayMs: 0 }), cpuRegion: 'europe-west1', pollIntervalMs: 10, maxPolls: 20 }, request.id);
  t.equal(done.state, 'Active');
  // Before it has any spend, the local inventory's estate holds it.
  const assets = await localInventorySource(pool).listAssets({ customerId: 'acme-corp', serviceAccountEmail: 'x@y.iam.gserviceaccount.com', currency: 'EUR' });
  t.ok(assets.some((a) => a.project_id === PROJECT && a.asset_type === 'cloudresourcemanager.googleapis.com/Project'), 'the project is in the local inventory');
  t.ok(assets.filter((a) => a.project_id === PROJECT).length > 3, 'with resources in it');

  // Active at 20:00 UTC on 10 March = 13:00 in US/Pacific: its first billed day is the 11th.
  await pool.query(`UPDATE project_request SET completed_at = '2026-03-10T20:00:00Z' WHERE id::text = $1`, [request.id]);

  const billed = await listProvisionedForBilling(pool, 'acme-corp', ACCOUNT);
  t.match(billed, [{ project_id: PROJECT, from: '2026-03-11', labels: { 'cost-owner': 'alice', 'commandcenter-request': request.id } }]);
  t.same(await listProvisionedForBilling(pool, 'acme-corp', '01FFEE-DDCCBB-AA9988'), [], 'not under the customer’s other account');
  t.same(await listProvisionedForBilling(pool, 'globex', ACCOUNT), [], 'not another customer’s');

  await ingestCommand(pool, { customer_id: 'acme-corp', billing_account_id: ACCOUNT, source: 'gcp-generated', from: '2026-03-09', to: '2026-03-12' }, { sources: {} });
  const { rows } = await pool.query<{ day: string; services: string[]; labels: Record<string, string> }>(
    `SELECT to_char(usage_date, 'YYYY-MM-DD') AS day, array_agg(DISTINCT service ORDER BY service) AS services, min(project_labels::text)::jsonb AS labels
       FROM cost_line WHERE billing_account_id = $1 AND project_id = $2 GROUP BY usage_date ORDER BY usage_date`,
    [ACCOUNT, PROJECT],
  );
  t.same(rows.map((r) => r.day), ['2026-03-11', '2026-03-12'], 'billed from the day after it became Active');
  t.same(rows[0].services, ['Cloud Logging', 'Cloud Run', 'Cloud Storage']);
  t.match(rows[0].labels, { 'cost-owner': 'alice' }, 'with its labels');
  const others = await pool.query(`SELECT count(DISTINCT project_id)::int AS n FROM cost_line WHERE billing_account_id = $1 AND usage_date = '2026-03-09'`, [ACCOUNT]);
  t.equal(others.rows[0].n, 5, 'the demo projects are billed as before');

});
