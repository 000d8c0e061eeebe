/**
 * Invitation e-mail → set password → sign in (spec 001 §2.7 New, §5 password rule, §8 login messages).
 * The e-mail goes through the notify queue, a real worker and the in-process SMTP server.
 */
import t from 'tap';
import { QueueEvents } from 'bullmq';
import { startLocalSmtpServer } from '@cc/shared/adapters/mail/local-smtp-server.ts';
import { smtpMailer } from '@cc/shared/adapters/mail/smtp-mailer.ts';
import { buildHandlers } from '../../workers/src/handlers.ts';
import { startWorkers } from '../../workers/src/worker-host.ts';
import { build, login, bearer } from '../helper.ts';
import { REDIS_URL } from '../db.ts';

t.test('an invited user sets a password from the e-mailed link and signs in', async (t) => {
  const app = await build(t);
  const { pool, config } = app.env;
  const smtp = await startLocalSmtpServer(pool, 0);
  t.teardown(() => smtp.close());
  const host = await startWorkers({
    redisUrl: REDIS_URL,
    prefix: config.QUEUE_PREFIX,
    queues: ['notify'],
    handlers: buildHandlers(['notify'], { pool, mailer: smtpMailer(`smtp://127.0.0.1:${smtp.port}`, config.MAIL_FROM), mailDomain: 'commandcenter.test' }),
  });
  t.teardown(() => host.close());
  const events = new QueueEvents('notify', { connection: { url: REDIS_URL }, prefix: config.QUEUE_PREFIX });
  t.teardown(() => events.close());
  await events.waitUntilReady();

  const admin = bearer(await login(app, 'admin@commandcenter.local'));
  const res = await app.inject({ method: 'POST', url: '/v1/users/', payload: { role: 'customer', emails: 'Erin@Initech.example', customers: ['initech'] }, headers: admin });
  t.equal(res.statusCode, 201, res.body);

  const inbox = async (to: string) => {
    for (let i = 0; i < 100; i++) {
      const r = await app.inject({ method: 'GET', url: '/v1/ops/mail', query: { to }, headers: admin });
      const messages = r.json().messages;
      if (messages.length) return messages;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no mail for ${to}`);
  };
  const [mail] = await inbox('erin@initech.example');
  t.equal(mail.subject, 'You are invited to CommandCenter');
  t.same(mail.rcpt_to, ['erin@initech.example']);
  const link = /(http\S+\/invitation\/([\w-]+))/.exec(mail.text_body);
  t.ok(link, 'the e-mail carries the link');
  t.equal(link![1], `${config.PUBLIC_URL}/invitation/${link![2]}`);
  t.match(mail.html_body, /<a href="http[^"]+\/invitation\/[\w-]+">Choose your password<\/a>/);
  const token = link![2]!;

  t.test('before: the account cannot sign in', async (t) => {
    const r = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: 'erin@initech.example', password: 'whatever1' } });
    t.same([r.statusCode, r.json()], [401, { detail: 'Invalid username or password' }]);
  });

  t.test('the link is valid and names the user', async (t) => {
    const r = await app.inject({ method: 'GET', url: `/v1/invitations/${token}` });
    t.same([r.statusCode, r.json()], [200, { email: 'erin@initech.example' }]);
    const bad = await app.inject({ method: 'GET', url: '/v1/invitations/not-a-token' });
    t.same([bad.statusCode, bad.json()], [404, { detail: 'Invitation not found or expired' }]);
  });

  t.test('password rules', async (t) => {
    const short = await app.inject({ method: 'POST', url: `/v1/invitations/${token}`, payload: { password: '12345' } });
    t.same([short.statusCode, short.json()], [400, { detail: 'Must have at least 6 characters' }]);
    const empty = await app.inject({ method: 'POST', url: `/v1/invitations/${token}`, payload: { password: '' } });
    t.same([empty.statusCode, empty.json()], [400, { detail: 'password: This field is required' }]);
  });

  t.test('setting the password verifies the e-mail; sign-in works and shows exactly the granted customer', async (t) => {
    const r = await app.inject({ method: 'POST', url: `/v1/invitations/${token}`, payload: { password: 'erin-secret' } });
    t.same([r.statusCode, r.json()], [200, { email: 'erin@initech.example' }]);
    const signIn = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: 'erin@initech.example', password: 'erin-secret' } });
    t.equal(signIn.statusCode, 200, signIn.body);
    t.same(signIn.json().claims.customers, [{ id: 'initech', name: 'Initech', entity: 'solo-ventures' }]);
    const user = await app.inject({ method: 'GET', url: '/v1/users/erin@initech.example/', headers: admin });
    t.match(user.json(), { email_verified: true, invitation_pending: false });
  });

  t.test('the link works once', async (t) => {
    const r = await app.inject({ method: 'POST', url: `/v1/invitations/${token}`, payload: { password: 'another-one' } });
    t.same([r.statusCode, r.json()], [404, { detail: 'Invitation not found or expired' }]);
    t.equal((await app.inject({ method: 'GET', url: `/v1/invitations/${token}` })).statusCode, 404);
    const resend = await app.inject({ method: 'POST', url: '/v1/users/erin@initech.example/invitation/', headers: admin });
    t.same([resend.statusCode, resend.json()], [400, { detail: 'This user has already set a password' }]);
  });
});

t.test('a new link retires the old one; expired links are refused', async (t) => {
  const app = await build(t, { config: { INVITATION_TTL_HOURS: 1 } });
  const admin = bearer(await login(app, 'admin@commandcenter.local'));
  const res = await app.inject({ method: 'POST', url: '/v1/users/', payload: { role: 'customerViewer', emails: 'frank@globex.example', customers: ['globex'] }, headers: admin });
  t.equal(res.statusCode, 201);
  const tokenOf = async () => {
    const jobs = await app.producers.queues.notify.getJobs(['waiting', 'delayed', 'prioritized']);
    // The token is only in the e-mail's link, never in the job's key (a key is seen in Redis and logs).
    const mails = jobs.filter((j) => (j.data.to as string[]).includes('frank@globex.example'));
    return mails.map((j) => /\/invitation\/([\w-]+)/.exec(j.data.text as string)![1]!);
  };
  const [first] = await tokenOf();
  t.ok(first);
  t.match((await app.inject({ method: 'GET', url: '/v1/invitations/' + first })).json(), { email: 'frank@globex.example' });

  const resend = await app.inject({ method: 'POST', url: '/v1/users/frank@globex.example/invitation/', headers: admin });
  t.same([resend.statusCode, resend.json()], [202, { email: 'frank@globex.example' }]);
  const second = (await tokenOf()).find((k) => k !== first)!;
  t.ok(second, 'a second e-mail with a new link');
  t.equal((await app.inject({ method: 'GET', url: '/v1/invitations/' + first })).statusCode, 404, 'old link retired');
  t.equal((await app.inject({ method: 'GET', url: '/v1/invitations/' + second })).statusCode, 200);

  await app.env.pool.query(`UPDATE invitation SET expires_at = now() - interval '1 second' WHERE user_id = 'frank@globex.example'`);
  const expired = await app.inject({ method: 'POST', url: '/v1/invitations/' + second, payload: { password: 'frank-secret' } });
  t.same([expired.statusCode, expired.json()], [404, { detail: 'Invitation not found or expired' }]);
  const { rows } = await app.env.pool.query(`SELECT password_hash, email_verified FROM app_user WHERE id = 'frank@globex.example'`);
  t.same(rows, [{ password_hash: null, email_verified: false }]);
});
