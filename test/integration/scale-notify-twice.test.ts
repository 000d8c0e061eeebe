/**
 * With several workers, one e-mail job can run in two of them at once: Redis lost its lock in a failover (or a restart
 * from its append-only file) and another worker took it back, or the reconciler published it again while it ran.
 * `make scale` met it: a primary killed with e-mails queued sent one of them twice. The same job started twice at
 * once, with the real local mail server, must send one e-mail.
 */
import t from 'tap';
import type { Job } from 'bullmq';
import { mailerFromConfig } from '@cc/shared/adapters/mail/from-config.ts';
import type { JobFor } from '@cc/shared/queues.ts';
import { notifyHandler } from '../../workers/src/jobs/notify.ts';
import { testEnv } from '../helper.ts';
import { freePort } from '../faults.ts';

t.test('the same notify job run by two workers at once sends one e-mail', async (t) => {
  const { config, pool } = await testEnv(t, { seed: false });
  const first = await mailerFromConfig({ ...config, MAIL: 'local', LOCAL_SMTP_PORT: await freePort() }, pool);
  t.teardown(() => first.close());
  const handler = notifyHandler({ pool, mailer: first.mailer, mailDomain: 'scale.test' });
  for (let i = 0; i < 5; i++) {
    const job = { id: `notify-twice-${i}`, data: { to: ['a@example.com'], subject: `twice ${i}`, text: 'hello', key: `twice-${i}` } } as unknown as Job;
    await Promise.all([handler(job as JobFor<'notify'>), handler(job as JobFor<'notify'>), handler(job as JobFor<'notify'>)]);
  }
  const { rows } = await pool.query<{ subject: string; n: number }>(`SELECT subject, count(*)::int AS n FROM mail_message WHERE subject LIKE 'twice %' GROUP BY subject ORDER BY subject`);
  t.same(rows, [0, 1, 2, 3, 4].map((i) => ({ subject: `twice ${i}`, n: 1 })), 'each e-mail stored once');
});
