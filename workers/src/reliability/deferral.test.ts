import t from 'tap';
import pg from 'pg';
import { deferOnOutage, deferralDelay } from './deferral.ts';

const settings = { baseMs: 1_000, maxMs: 15_000 };
const mid = () => 0.5;

t.test('the wait doubles with each uncounted run and stops at maxMs', async (t) => {
  const waits = [1, 2, 3, 4, 5, 6, 40].map((started) => deferralDelay({ attemptsStarted: started, attemptsMade: 0 }, settings, mid));
  t.same(waits, [1_000, 2_000, 4_000, 8_000, 15_000, 15_000, 15_000]);
  t.equal(deferralDelay({ attemptsStarted: 4, attemptsMade: 3 }, settings, mid), 1_000, 'counted failures do not lengthen it');
  t.equal(deferralDelay({ attemptsStarted: 1, attemptsMade: 0 }, settings, () => 0), 800, 'jitter −20 %');
  t.equal(deferralDelay({ attemptsStarted: 1, attemptsMade: 0 }, settings, () => 1), 1_200, 'jitter +20 %');
});

t.test('an outage moves the job to delayed; the job\'s own failure does not', async (t) => {
  const moves: number[] = [];
  const job = { attemptsStarted: 1, attemptsMade: 0, moveToDelayed: async (ts: number) => void moves.push(ts) };
  const refused = Object.assign(new pg.DatabaseError('database "x" is not currently accepting connections', 0, 'error'), { code: '55000' });
  const delay = await deferOnOutage(job, 'token', refused, settings);
  t.ok(delay !== null && delay >= 800 && delay <= 1_200, `deferred ${delay} ms`);
  t.equal(moves.length, 1);
  t.equal(await deferOnOutage(job, 'token', new Error('Jira answered 400'), settings), null, 'a work failure counts');
  t.equal(moves.length, 1);
  const stuck = { ...job, moveToDelayed: async () => Promise.reject(new Error('Connection is closed.')) };
  await t.rejects(deferOnOutage(stuck, 'token', refused, settings), refused, 'a move that fails rethrows the original error');
});
