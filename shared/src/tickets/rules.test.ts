import t from 'tap';
import {
  TRANSITIONS,
  TICKET_STATUSES,
  allowedTransitions,
  checkAttachmentCount,
  checkCommentMessage,
  checkNewTicket,
  checkOpenForChanges,
  checkPriorityChange,
  checkSatisfaction,
  checkStatusChange,
  priorityChangeable,
  statusChangeable,
} from './rules.ts';
import { firstResponseBucket } from './first-response.ts';

t.test('new ticket: summary, priority, description', async (t) => {
  const ok = { summary: '  Disk full ', description: 'Order entry fails', priority: 'P2' };
  t.same(checkNewTicket(ok), { summary: 'Disk full', description: 'Order entry fails', priority: 'P2' });
  t.throws(() => checkNewTicket({ ...ok, summary: '   ' }), { message: 'Summary: This field is required' });
  t.throws(() => checkNewTicket({ ...ok, summary: undefined }), { message: 'Summary: This field is required' });
  t.same(checkNewTicket({ ...ok, summary: 'x'.repeat(100) }).summary.length, 100);
  t.throws(() => checkNewTicket({ ...ok, summary: 'x'.repeat(101) }), { message: 'Summary must be at most 100 characters' });
  t.throws(() => checkNewTicket({ ...ok, priority: '' }), { message: 'Priority: This field is required' });
  t.throws(() => checkNewTicket({ ...ok, priority: 'P5' }), { message: 'Priority must be one of P1, P2, P3, P4' });
  t.throws(() => checkNewTicket({ ...ok, description: '' }), { message: 'Description: This field is required' });
  t.equal(checkNewTicket({ ...ok, description: 'd'.repeat(30_000) }).description.length, 30_000);
  t.throws(() => checkNewTicket({ ...ok, description: 'd'.repeat(30_001) }), { message: 'Description must be at most 30000 characters' });
});

t.test('comments: required, at most 30,000; refused on Closed and Cancel', async (t) => {
  t.equal(checkCommentMessage('c'.repeat(30_000)).length, 30_000);
  t.throws(() => checkCommentMessage('c'.repeat(30_001)), { message: 'Comment must be at most 30000 characters' });
  t.throws(() => checkCommentMessage(' '), { message: 'This field is required' });
  for (const s of ['Open', 'In Progress', 'Resolved']) t.doesNotThrow(() => checkOpenForChanges(s), s);
  t.throws(() => checkOpenForChanges('Closed'), { message: 'The ticket is Closed: it can no longer be changed' });
  t.throws(() => checkOpenForChanges('Cancel'), { message: 'The ticket is Cancel: it can no longer be changed' });
});

t.test('transition table per role', async (t) => {
  t.same(allowedTransitions('admin', 'Open'), ['In Progress', 'Resolved', 'Cancel']);
  t.same(allowedTransitions('admin', 'Resolved'), ['In Progress', 'Closed']);
  t.same(allowedTransitions('customer', 'Open'), ['Cancel']);
  t.same(allowedTransitions('customer', 'Resolved'), ['In Progress', 'Closed']);
  for (const role of ['admin', 'customer'] as const) {
    t.same(allowedTransitions(role, 'Closed'), [], `${role}: Closed loads no transitions`);
    t.same(allowedTransitions(role, 'Cancel'), [], `${role}: Cancel is final`);
    for (const from of TICKET_STATUSES) {
      for (const to of TRANSITIONS[role][from]) t.not(to, from, `${role} ${from} never lists itself`);
    }
  }
  t.equal(checkStatusChange('admin', 'Open', 'In Progress'), 'In Progress');
  t.throws(() => checkStatusChange('customer', 'Open', 'Resolved'), { message: 'A ticket cannot move from Open to Resolved' });
  t.throws(() => checkStatusChange('admin', 'Closed', 'Open'), { message: 'The status of a Closed ticket cannot be changed' });
  t.throws(() => checkStatusChange('admin', 'Open', 'Done'), { message: /Status must be one of/ });
  t.throws(() => checkStatusChange('admin', 'Open', 'Open'), { message: 'The ticket is already Open' });
  t.same(TICKET_STATUSES.filter(statusChangeable), ['Open', 'In Progress', 'Resolved']);
  t.same(TICKET_STATUSES.filter(priorityChangeable), ['Open', 'In Progress']);
});

t.test('priority changes only while Open or In Progress', async (t) => {
  t.equal(checkPriorityChange('Open', 'P3', 'P1'), 'P1');
  t.throws(() => checkPriorityChange('Resolved', 'P3', 'P1'), { message: 'The priority of a Resolved ticket cannot be changed' });
  t.throws(() => checkPriorityChange('Open', 'P3', 'P0'), { message: 'Priority must be one of P1, P2, P3, P4' });
  t.throws(() => checkPriorityChange('Open', 'P3', 'P3'), { message: 'The priority is already P3' });
});

t.test('satisfaction: once, Closed, not an admin, score and comment', async (t) => {
  const closed = { status: 'Closed', satisfaction_score: null };
  t.same(checkSatisfaction(closed, false, { score: 4, message: 'Quick fix' }), { score: 4, message: 'Quick fix' });
  t.throws(() => checkSatisfaction(closed, true, { score: 4, message: 'x' }), { message: 'Satisfaction is given by the customer, not by an admin' });
  t.throws(() => checkSatisfaction({ status: 'Resolved', satisfaction_score: null }, false, { score: 4, message: 'x' }), {
    message: 'Satisfaction can be given only on a Closed ticket',
  });
  t.throws(() => checkSatisfaction({ status: 'Closed', satisfaction_score: 5 }, false, { score: 4, message: 'x' }), {
    message: 'Satisfaction has already been given for this ticket',
  });
  for (const score of [undefined, null, 0, 6, 2.5]) {
    t.throws(() => checkSatisfaction(closed, false, { score, message: 'x' }), { message: 'Please, select satisfaction score' }, String(score));
  }
  t.throws(() => checkSatisfaction(closed, false, { score: 3, message: '' }), { message: 'This field is required' });
});

t.test('attachments: at most 10 per ticket', async (t) => {
  t.doesNotThrow(() => checkAttachmentCount(8, 2));
  t.throws(() => checkAttachmentCount(9, 2), { message: 'A ticket has at most 10 attachments' });
});

t.test('first-response bucket', async (t) => {
  const created = '2026-11-01T00:00:00Z';
  const after = (min: number) => new Date(Date.parse(created) + min * 60_000).toISOString();
  t.equal(firstResponseBucket(created, null), null);
  t.equal(firstResponseBucket(created, after(59)), '< 1h');
  t.equal(firstResponseBucket(created, after(60)), '< 4h');
  t.equal(firstResponseBucket(created, after(239)), '< 4h');
  t.equal(firstResponseBucket(created, after(240)), '< 24h');
  t.equal(firstResponseBucket(created, after(1439)), '< 24h');
  t.equal(firstResponseBucket(created, after(1440)), '< 48h');
  t.equal(firstResponseBucket(created, after(2879)), '< 48h');
  t.equal(firstResponseBucket(created, after(2880)), '48h');
  t.equal(firstResponseBucket(created, after(4410)), '74h');
});

