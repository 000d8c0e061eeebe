/**
 * One attempt of one delivery (a row of channel_delivery) to its notification channel, and what follows it:
 *  - 2xx: delivered;
 *  - 5xx, 408, 429 or a network error (the 5 s timeout included): retried, after the answer's Retry-After when it
 *    gives one, else after 1 s doubling per attempt up to an hour; a retry that would start more than a day after the
 *    event is not made and the delivery is given up (the operations inbox shows it);
 *  - a refused destination (not https, a private address), a redirect (never followed) or another 4xx: given up now.
 * The next attempt is a job of its own (`channel-<delivery>-<attempt>`), queued through the outbox in the transaction
 * that records this attempt's outcome. A worker killed mid-attempt leaves the attempt open: BullMQ hands the job to
 * another worker, which sends again under the same delivery id (the receiver's idempotency key).
 */
import { UnrecoverableError } from 'bullmq';
import { deliveryRequest } from '@cc/shared/notification-channels/bodies.ts';
import { postJson, RefusedDestination, type SendAnswer, type SendPolicy } from '@cc/shared/notification-channels/send.ts';
import { findDelivery, markAttemptStarted, markDelivered, markGivenUp, markRetry, type AttemptOutcome } from '@cc/shared/db/notification-channels.ts';
import { enqueueInTransaction } from '@cc/shared/outbox.ts';
import type pg from 'pg';
import type { SecretBox } from '@cc/shared/secret-box.ts';
import type { NotifyChannelCommand } from '@cc/shared/queues.ts';

/** A delivery not made within this long after its event is given up. */
export const GIVE_UP_AFTER_MS = 24 * 60 * 60 * 1000;
export const FIRST_RETRY_MS = 1000;
export const MAX_RETRY_MS = 60 * 60 * 1000;

export interface DeliverDeps {
  secretBox: SecretBox;
  channelSendPolicy: SendPolicy;
}

export interface AttemptResult {
  outcome: string;
  status?: number | null;
  /** Outbox rows of the next attempt, committed: the caller publishes them once it let go of its connection. */
  recorded: string[];
}

/** Retry-After in seconds or as an HTTP date (RFC 9110 §10.2.3), in ms from `now`; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number): number | null {
  if (value === null) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** The wait before attempt `attempt + 1`. */
export function backoffMs(attempt: number): number {
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(attempt - 1, 30));
}

type Verdict = { kind: 'delivered'; outcome: AttemptOutcome } | { kind: 'retry'; outcome: AttemptOutcome; delayMs: number } | { kind: 'give-up'; outcome: AttemptOutcome };

function judge(answer: SendAnswer, attempt: number, now: number): Verdict {
  const outcome: AttemptOutcome = { status: answer.status, error: null, response: answer.body };
  if (answer.status >= 200 && answer.status < 300) return { kind: 'delivered', outcome };
  if (answer.status >= 300 && answer.status < 400) {
    return { kind: 'give-up', outcome: { ...outcome, error: `redirect not followed (${answer.status}${answer.location ? ` to ${answer.location.slice(0, 200)}` : ''})` } };
  }
  if (answer.status >= 500 || answer.status === 429 || answer.status === 408) {
    const delayMs = retryAfterMs(answer.retryAfter, now) ?? backoffMs(attempt);
    return { kind: 'retry', outcome: { ...outcome, error: `answered ${answer.status}` }, delayMs };
  }
  return { kind: 'give-up', outcome: { ...outcome, error: `answered ${answer.status}` } };
}

/**
 * Makes the attempt `cmd.attempt` of delivery `cmd.delivery_id`, if it is still the one due. Everything goes through
 * `db`, the one connection the job holds (with its lock): a job never waits for a second connection of the pool
 * while holding one, so concurrent jobs cannot starve each other of connections.
 */
export async function deliverAttempt(db: pg.PoolClient, deps: DeliverDeps, cmd: NotifyChannelCommand): Promise<AttemptResult> {
  const d = await findDelivery(db, cmd.delivery_id);
  if (!d) return { outcome: 'skipped: the channel was deleted', recorded: [] };
  if (d.delivered_at) return { outcome: 'skipped: already delivered', recorded: [] };
  if (d.failed_at) return { outcome: 'skipped: given up', recorded: [] };
  if (d.attempt !== cmd.attempt) return { outcome: `skipped: attempt ${cmd.attempt} superseded by ${d.attempt}`, recorded: [] };
  let url: string;
  let secret: string | null;
  try {
    url = deps.secretBox.open(d.url_sealed, d.id);
    secret = d.secret_sealed ? deps.secretBox.open(d.secret_sealed, d.id) : null;
  } catch (err) {
    await markGivenUp(db, d.delivery_id, { status: null, error: `channel secrets unreadable: ${(err as Error).message}`, response: null });
    throw new UnrecoverableError('channel secrets unreadable');
  }
  const request = deliveryRequest(d.kind, d.delivery_id, d.event, secret);
  await markAttemptStarted(db, d.delivery_id);
  const now = Date.now();
  let verdict: Verdict;
  try {
    verdict = judge(await postJson(url, request.body, request.headers, deps.channelSendPolicy), cmd.attempt, now);
  } catch (err) {
    const error = (err as Error).message.slice(0, 1024);
    verdict = err instanceof RefusedDestination
      ? { kind: 'give-up', outcome: { status: null, error: `refused: ${error}`, response: null } }
      : { kind: 'retry', outcome: { status: null, error, response: null }, delayMs: backoffMs(cmd.attempt) };
  }
  if (verdict.kind === 'delivered') {
    await markDelivered(db, d.delivery_id, verdict.outcome);
    return { outcome: 'delivered', status: verdict.outcome.status, recorded: [] };
  }
  if (verdict.kind === 'retry' && now + verdict.delayMs <= d.created_at.getTime() + GIVE_UP_AFTER_MS) {
    const delayMs = verdict.delayMs;
    const next = cmd.attempt + 1;
    // the outcome and the next attempt's job commit together
    await db.query('BEGIN');
    try {
      await markRetry(db, d.delivery_id, next, new Date(now + delayMs), verdict.outcome);
      const outbox = enqueueInTransaction(db);
      await outbox.enqueue('notify-channel', 'notify.channel', { delivery_id: d.delivery_id, attempt: next }, { delay: delayMs });
      await db.query('COMMIT');
      return { outcome: `retry in ${delayMs} ms`, status: verdict.outcome.status, recorded: outbox.recorded };
    } catch (err) {
      await db.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  }
  await markGivenUp(db, d.delivery_id, verdict.kind === 'retry' ? { ...verdict.outcome, error: `given up after a day: ${verdict.outcome.error}` } : verdict.outcome);
  return { outcome: 'given up', status: verdict.outcome.status, recorded: [] };
}
