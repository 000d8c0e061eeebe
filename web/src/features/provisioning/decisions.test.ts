import t from 'tap';
import type { ProjectRecord } from '@cc/shared/schemas/provisioning.ts';
import { applicable, DECISIONS, decisionMessage } from './decisions.ts';

const row = (id: string, state: ProjectRecord['state']) => ({ id, state }) as ProjectRecord;
const rows = [row('a', 'Pending approval'), row('b', 'Failed'), row('c', 'Active'), row('d', 'Pending approval')];

t.test('approve applies to the pending rows of a selection, reject to pending and failed ones, retry to failed ones', async (t) => {
  t.same(applicable('approve', rows).map((r) => r.id), ['a', 'd']);
  t.same(applicable('reject', rows).map((r) => r.id), ['a', 'b', 'd']);
  t.same(applicable('retry', rows).map((r) => r.id), ['b']);
});

t.test('the dialog titles and the toasts', async (t) => {
  t.equal(DECISIONS.approve.title(2), 'Please confirm to approve the following 2 projects', 'the spec’s text');
  t.equal(DECISIONS.reject.title(1), 'Please confirm to reject the following 1 projects');
  t.equal(decisionMessage('approve', 2, 0), '2 project(s) approved');
  t.equal(decisionMessage('reject', 1, 2), '1 project(s) rejected; 2 not pending or failed, left as they are');
  t.equal(decisionMessage('retry', 1, 1), '1 project(s) retried from the step that failed; 1 not failed, left as they are');
});
