import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, login, bearer } from '../helper.ts';
import { raise, upload } from '../fakes/tickets-client.ts';
import { PNG } from '../fakes/files.ts';
import { localTicketSystem } from '@cc/shared/adapters/jira/local.ts';
import { syncTicket } from '../../workers/src/tickets/sync.ts';
import { localAttachmentStore } from '@cc/shared/adapters/attachment-store/local.ts';

t.test("a customer can never read or change another customer's ticket, whatever key is sent", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-attach-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const app = await build(t, { config: { ATTACHMENT_DIR: dir } });
  const [alice, bob, admin, victor] = await Promise.all(
    ['alice@acme.example', 'bob@initech.example', 'admin@commandcenter.local', 'victor@acme.example'].map((e) => login(app, e)),
  );
  const bobsFile = await upload(app, bob, 'bob.png', PNG);
  const bobs = await raise(app, bob, 'initech', { attachments: [bobsFile.name], summary: 'Initech secret' });
  t.equal(bobs.status, 201);
  const alices = await raise(app, alice, 'acme-corp');
  // give both tickets their system-of-record key, as the queue would
  const deps = { pool: app.env.pool, system: localTicketSystem(app.env.pool, { project: 'MSP' }), store: localAttachmentStore({ dir, secret: 'x' }) };
  const synced = await syncTicket(deps, bobs.id);
  await syncTicket(deps, alices.id);
  const bobKey = (synced as { key: string }).key;
  t.match(bobKey, /^MSP-\d+$/);
  const attachmentId = (bobs.body.attachments as { id: string }[])[0].id;

  const probes: [string, 'GET' | 'POST' | 'PATCH' | 'DELETE', string, object?][] = [];
  for (const key of [bobs.id, bobKey, bobs.id.toUpperCase()]) {
    probes.push(
      ['read', 'GET', `/v1/jira/msp_tickets/${key}`],
      ['comments', 'GET', `/v1/jira/msp_tickets/${key}/comment`],
      ['comment', 'POST', `/v1/jira/msp_tickets/${key}/comment`, { message: 'hi' }],
      ['status', 'PATCH', `/v1/jira/msp_tickets/${key}/status`, { name: 'Cancel', comment_body: 'x' }],
      ['priority', 'PATCH', `/v1/jira/msp_tickets/${key}/priority`, { priority: { name: 'P1' }, comment_body: 'x' }],
      ['satisfaction', 'PATCH', `/v1/jira/msp_tickets/${key}/satisfaction`, { score: 1, message: 'x' }],
      ['attach', 'PATCH', `/v1/jira/msp_tickets/${key}/attachment`, { name: bobsFile.name }],
      ['download', 'GET', `/v1/jira/msp_tickets/${key}/attachment/${attachmentId}`],
      ['delete attachment', 'DELETE', `/v1/jira/msp_tickets/${key}/attachment/${attachmentId}`],
    );
  }
  probes.push(['list', 'GET', '/v1/jira/msp_tickets/initech/list'], ['create', 'POST', '/v1/jira/msp_tickets', { customer: 'initech', summary: 's', description: 'd', priority: 'P1' }]);
  for (const [name, method, url, payload] of probes) {
    const res = await app.inject({ method, url, headers: bearer(alice), ...(payload ? { payload } : {}) });
    t.equal(res.statusCode, 404, `alice ${name} ${url} → ${res.statusCode}`);
    t.notMatch(res.body, /Initech secret/);
  }
  // alice's own ticket: bob's attachment id through it, bob's upload on it
  const cross = await app.inject({ method: 'GET', url: `/v1/jira/msp_tickets/${alices.id}/attachment/${attachmentId}`, headers: bearer(alice) });
  t.equal(cross.statusCode, 404, "another ticket's attachment is not found through one's own ticket");
  const theft = await app.inject({ method: 'PATCH', url: `/v1/jira/msp_tickets/${alices.id}/attachment`, headers: bearer(alice), payload: { name: bobsFile.name } });
  t.equal(theft.statusCode, 400, "someone else's upload cannot be attached");
  // the same id as bob's ticket in a create for her own customer neither reveals nor overwrites it
  const reuse = await raise(app, alice, 'acme-corp', { id: bobs.id });
  t.equal(reuse.status, 400);
  t.same(reuse.body, { detail: 'This ticket id is already used' });

  const nothing = await app.inject({ method: 'GET', url: `/v1/jira/msp_tickets/${bobs.id}/comment`, headers: bearer(bob) });
  t.same(nothing.json(), [], 'no comment slipped through');
  const still = (await app.inject({ method: 'GET', url: `/v1/jira/msp_tickets/${bobKey}`, headers: bearer(bob) })).json();
  t.match(still, { status: 'Open', priority: 'P2', jira_issue_key: bobKey });
  t.equal(still.attachments.length, 1);

  const viewer = await app.inject({ method: 'GET', url: `/v1/jira/msp_tickets/${alices.id}`, headers: bearer(victor) });
  t.equal(viewer.statusCode, 200, 'a viewer of acme-corp reads its tickets');
  t.equal((await app.inject({ method: 'GET', url: `/v1/jira/msp_tickets/${bobs.id}`, headers: bearer(victor) })).statusCode, 404);
  const adminRead = await app.inject({ method: 'GET', url: `/v1/jira/msp_tickets/${bobKey}`, headers: bearer(admin) });
  t.equal(adminRead.statusCode, 200, 'the provider reads every customer');
  t.equal((await app.inject({ method: 'GET', url: '/v1/jira/msp_tickets/nope-nope', headers: bearer(admin) })).statusCode, 404);

  // the Support feature off for acme-corp: its users are refused, the provider still reads
  await app.env.pool.query(`UPDATE customer SET support_request = false WHERE customer_id = 'acme-corp'`);
  await app.access.publish(); // a write outside the api: the access epoch moves before the next request (NOTIFY may lag)
  const off = await app.inject({ method: 'GET', url: '/v1/jira/msp_tickets/acme-corp/list', headers: bearer(alice) });
  t.equal(off.statusCode, 403);
  t.same(off.json(), { detail: 'Support requests are disabled for this customer' });
  t.equal((await app.inject({ method: 'GET', url: `/v1/jira/msp_tickets/${alices.id}`, headers: bearer(alice) })).statusCode, 403);
  t.equal((await raise(app, alice, 'acme-corp')).status, 403);
  t.equal((await app.inject({ method: 'GET', url: '/v1/jira/msp_tickets/acme-corp/list', headers: bearer(admin) })).statusCode, 200);
});
