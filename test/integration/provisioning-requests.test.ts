/** The project request store: generated ids unique among live requests, approvals only of pending requests of the customer. */
import t from 'tap';
import type { Pool } from '@cc/shared/db/pool.ts';
import { findCustomer } from '@cc/shared/db/customers.ts';
import {
  approveProjectRequests,
  createProjectRequest,
  listProjectRequests,
  projectNameTaken,
  rejectProjectRequests,
  retryProjectRequests,
} from '@cc/shared/db/provisioning.ts';
import { checkNewProject, type ProjectTemplate } from '@cc/shared/provisioning/rules.ts';
import { testEnv } from '../helper.ts';

const ADMIN = 'admin@commandcenter.local';
const BASE = { bu: 'retail', product: 'webshop', env: 'prod', owner_value: 'alice', template_name: 'Standard analytics project' };

async function request(pool: Pool, customerId: string, input: Partial<typeof BASE> = {}) {
  const c = (await findCustomer(pool, 'acme-corp'))!;
  const checked = checkNewProject({ ...BASE, ...input }, { ...c, project_provisioning: c.project_provisioning as ProjectTemplate[] });
  return createProjectRequest(pool, { customerId, requester: 'alice@acme.example', checked });
}

t.test('a generated id is held by one live request, across customers; a rejected request gives it back', async (t) => {
  const { pool } = await testEnv(t);
  const first = await request(pool, 'acme-corp');
  t.match(first, {
    customer_id: 'acme-corp', requester: 'alice@acme.example', project_name: 'acme-retail-webshop-prod', state: 'Pending approval',
    folder_name: 'analytics', folder_number: '123456789012', project_type: 'analytics', current_step: null, step_log: [],
    project_template: { budget: 1000, default_admin: 'alice@acme.example', quota: { bigquery_analysis: 10, compute_engine_cpus: 24 } },
  });
  t.ok(await projectNameTaken(pool, 'acme-retail-webshop-prod'));
  await t.rejects(request(pool, 'acme-corp'), { message: "A request for project 'acme-retail-webshop-prod' already exists", statusCode: 409 });
  await t.rejects(request(pool, 'globex'), { message: "Project id 'acme-retail-webshop-prod' is already taken", statusCode: 409 });

  t.match(await rejectProjectRequests(pool, 'acme-corp', [first.id], ADMIN), { changed: [{ id: first.id, state: 'Rejected', decided_by: ADMIN }], refused: [] });
  t.notOk(await projectNameTaken(pool, 'acme-retail-webshop-prod'));
  const again = await request(pool, 'acme-corp');
  t.same(
    (await listProjectRequests(pool, 'acme-corp')).map((r) => [r.id, r.state]).sort(),
    [[first.id, 'Rejected'], [again.id, 'Pending approval']].sort(),
  );
  t.same(await listProjectRequests(pool, 'globex'), []);
});

t.test('reject takes pending and Failed requests (a Failed one gives its id back), nothing else', async (t) => {
  const { pool } = await testEnv(t);
  const failed = await request(pool, 'acme-corp');
  const approved = await request(pool, 'acme-corp', { env: 'dev' });
  await approveProjectRequests(pool, 'acme-corp', [failed.id, approved.id], ADMIN);
  await pool.query(
    `UPDATE project_request SET state = 'Failed', failed_step = 'link_billing', error = 'no account',
            step_log = '[{"step": "link_billing", "outcome": "failed", "detail": "no account", "at": "2026-01-01T00:00:00Z"}]' WHERE id::text = $1`,
    [failed.id],
  );

  const res = await rejectProjectRequests(pool, 'acme-corp', [failed.id, approved.id], ADMIN);
  t.match(res.changed, [{ id: failed.id, state: 'Rejected', failed_step: null, error: null, step_log: [{ step: 'link_billing', outcome: 'failed' }] }], 'the failure stays in the step log');
  t.same(res.refused, [{ id: approved.id, state: 'Approved' }], 'an approved one is the worker’s now');
  t.notOk(await projectNameTaken(pool, 'acme-retail-webshop-prod'), 'its id is free again');
});

t.test('approve takes the selected ids and refuses those not pending or not of the customer', async (t) => {
  const { pool } = await testEnv(t);
  const a = await request(pool, 'acme-corp');
  const b = await request(pool, 'acme-corp', { env: 'dev' });
  const c = await request(pool, 'acme-corp', { product: 'ledger' });
  const other = await request(pool, 'globex', { bu: 'finance' });
  await rejectProjectRequests(pool, 'acme-corp', [c.id], ADMIN);

  const unknown = '00000000-0000-0000-0000-000000000000';
  const res = await approveProjectRequests(pool, 'acme-corp', [a.id, b.id, c.id, other.id, unknown, 'not-a-uuid'], ADMIN);
  t.same(res.changed.map((r) => [r.project_name, r.state]), [['acme-retail-webshop-dev', 'Approved'], ['acme-retail-webshop-prod', 'Approved']]);
  t.same(res.refused, [
    { id: c.id, state: 'Rejected' },
    { id: other.id, state: null },
    { id: unknown, state: null },
    { id: 'not-a-uuid', state: null },
  ]);
  t.match(await approveProjectRequests(pool, 'acme-corp', [a.id], ADMIN), { changed: [], refused: [{ id: a.id, state: 'Approved' }] }, 'approving twice is refused');
  t.match(await retryProjectRequests(pool, 'acme-corp', [a.id], ADMIN), { changed: [], refused: [{ id: a.id, state: 'Approved' }] }, 'only Failed requests are retried');
  t.match(await approveProjectRequests(pool, 'globex', [other.id], ADMIN), { changed: [{ id: other.id, state: 'Approved' }] });
});
