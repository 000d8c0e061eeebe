/**
 * Keeps the system of record (Jira or the local ticket system) and the local `ticket` rows in step.
 * - syncTicket: pushes one ticket's waiting writes. Safe to run twice or concurrently: a per-ticket advisory lock
 *   serialises runs, and every remote write is found again before it is repeated (issue label, comment marker,
 *   attachment file name), so a crash between "written there" and "recorded here" never duplicates anything.
 * - pullChanges / pullIssue: reads what changed there (engineers' comments, status, priority, assignee). Comments
 *   internal there (Jira: internal notes, group/role restrictions) never enter the portal, and one pulled while public
 *   leaves it when it turns internal; other edits and deletions of a pulled comment are not followed.
 */
import { randomUUID } from 'node:crypto';
import { withClient, withTransaction, type Pool, type Queryable } from '@cc/shared/db/pool.ts';
import {
  applyRemoteIssue,
  attachmentsToSync,
  clearCreateSent,
  dropAbandonedUploads,
  findTicketById,
  findTicketByJiraKey,
  insertRemoteComment,
  isCustomerUser,
  storedRemoteCommentIds,
  withdrawRemoteComment,
  markAttachmentSynced,
  markCommentSynced,
  markCreated,
  markCreateSent,
  markSynced,
  pendingComments,
  readCursor,
  unsyncedTicketIds,
  writeCursor,
} from '@cc/shared/db/tickets/sync.ts';
import type { AttachmentStore } from '@cc/shared/ports/attachment-store.ts';
import { ticketIdFromLabels, ticketLabel, type RemoteIssue, type TicketSystem } from '@cc/shared/ports/ticket-system.ts';
import { SATISFACTION_SCALE, TICKET_STATUSES, isTicketPriority } from '@cc/shared/tickets/rules.ts';
import { enqueueInTransaction, publishAfterCommit } from '@cc/shared/outbox.ts';
import { recordChannelEvent } from '@cc/shared/notification-channels/queue.ts';
import { ticketCommentEvent } from '@cc/shared/notification-channels/notices.ts';
import type { Enqueue } from '@cc/shared/producer.ts';

export interface TicketSyncDeps {
  pool: Pool;
  system: TicketSystem;
  store: AttachmentStore;
  /**
   * Pauses before looking for the issue again when a create's answer was lost (5xx, network): Jira's JQL search is
   * eventually consistent, so an issue created a moment ago may not be found yet. Default 2 s, 5 s, 10 s.
   */
  createRecheckMs?: readonly number[];
  /**
   * How long after a create whose outcome is unknown the sync trusts a search that does not find the issue: until
   * then it creates nothing (Atlassian: search may lag "from a few seconds to minutes"). Default 10 minutes.
   */
  createSettleMs?: number;
  /**
   * The customer's notification channels hear of an engineer's comment pulled from the system (as of an admin's made
   * in the portal): the worker's enqueue (publishes the outbox rows after COMMIT) and PUBLIC_URL (the ticket's link).
   * The job always has them (JOB_DEPS); a caller of the sync alone may leave them out, and then no channel hears.
   */
  notices?: { enqueue: Enqueue; publicUrl: string };
}

const CREATE_RECHECK_MS = [2_000, 5_000, 10_000];
const CREATE_SETTLE_MS = 10 * 60_000;

/**
 * An earlier create of this ticket may have made an issue that search does not show yet: creating now could make a
 * second one. Retryable (the queue's retries, then the periodic pull's catch-up, try again), never a sync failure.
 */
export class CreateNotSettled extends Error {
  override name = 'CreateNotSettled';
}

/** A refusal (4xx) means nothing was created; anything else (5xx, a dropped connection) leaves it unknown. */
const outcomeUnknown = (err: unknown) => {
  const status = (err as { status?: unknown } | null)?.status;
  return !(typeof status === 'number' && status >= 400 && status < 500);
};

/**
 * Creates the issue labelled `label`. When the answer is lost the issue may exist all the same: it is looked for
 * again after each pause (the search index lags), so a retry right behind a lost answer does not create a second one.
 */
async function createOnce(system: TicketSystem, label: string, create: () => Promise<{ key: string }>, recheckMs: readonly number[]): Promise<{ key: string; created: boolean }> {
  try {
    return { ...(await create()), created: true };
  } catch (err) {
    if (!outcomeUnknown(err)) throw err;
    for (const ms of recheckMs) {
      await new Promise((r) => setTimeout(r, ms));
      const found = await system.findIssueByLabel(label).catch(() => null);
      if (found) return { key: found.key, created: false };
    }
    throw err;
  }
}

const PULL_CURSOR = 'pull';
/** Re-read this much before the cursor: `updated` has minute precision in JQL, and clocks differ. */
const PULL_OVERLAP_MS = 2 * 60_000;
const FIRST_PULL_LOOKBACK_MS = 24 * 3600_000;

/** Runs `fn` holding the ticket's advisory lock, on the connection that holds it (one connection per running sync). */
async function withTicketLock<T>(pool: Pool, ticketId: string, fn: (db: Queryable) => Promise<T>): Promise<T> {
  return withClient(pool, async (client) => {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [`ticket-sync:${ticketId}`]);
    try {
      return await fn(client);
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`ticket-sync:${ticketId}`]);
    }
  });
}

export interface SyncResult {
  key: string | null;
  created: boolean;
  comments: number;
  attachments: number;
  fields: boolean;
}

export function syncTicket(deps: TicketSyncDeps, ticketId: string): Promise<SyncResult | { skipped: string }> {
  return withTicketLock(deps.pool, ticketId, async (pool) => {
    const { system, store } = deps;
    const t = await findTicketById(pool, ticketId);
    if (!t) return { skipped: 'no such ticket' };
    const result: SyncResult = { key: t.jira_key, created: false, comments: 0, attachments: 0, fields: false };

    let key = t.jira_key;
    if (!key) {
      // A create whose answer was lost is looked for by key too when the system can (Jira): its search may lag
      // behind by more than the settle time, the issue itself does not.
      const existing =
        (await system.findIssueByLabel(ticketLabel(t.id))) ??
        (t.jira_create_sent_at && system.findCreatedAfter ? await system.findCreatedAfter(ticketLabel(t.id), Number(t.jira_create_after_number ?? 0)) : null);
      if (existing) key = existing.key;
      else {
        const settleMs = deps.createSettleMs ?? CREATE_SETTLE_MS;
        const sentAt = t.jira_create_sent_at;
        if (sentAt && Date.now() - sentAt.getTime() < settleMs) {
          throw new CreateNotSettled(
            `an issue create for ticket ${t.id} was sent at ${sentAt.toISOString()} and its answer never recorded; ${system.name} search does not show it yet, so nothing is created before ${new Date(sentAt.getTime() + settleMs).toISOString()}`,
          );
        }
        await markCreateSent(pool, t.id);
        const made = await createOnce(
          system,
          ticketLabel(t.id),
          () =>
            system.createIssue({
              summary: t.summary,
              description: `${t.description}\n\nRaised by ${t.created_by} for ${t.customer_name} in CommandCenter.`,
              priority: isTicketPriority(t.priority) ? t.priority : 'P3',
              labels: [ticketLabel(t.id), `cc-customer-${t.customer_id}`],
            }),
          deps.createRecheckMs ?? CREATE_RECHECK_MS,
        ).catch(async (err: unknown) => {
          if (!outcomeUnknown(err)) await clearCreateSent(pool, t.id);
          throw err;
        });
        key = made.key;
        result.created = made.created;
      }
      await markCreated(pool, t.id, key);
      result.key = key;
    }

    const comments = await pendingComments(pool, t.id);
    const wantSatisfactionComment = t.satisfaction_score !== null;
    if (comments.length || wantSatisfactionComment) {
      const remote = new Map((await system.listComments(key)).filter((c) => c.marker).map((c) => [c.marker, c]));
      for (const c of comments) {
        const done = remote.get(c.id) ?? (await system.addComment(key, { body: `${c.author} wrote:\n${c.message}`, marker: c.id }));
        await markCommentSynced(pool, c.id, done.id);
        result.comments++;
      }
      const marker = `satisfaction-${t.id}`;
      if (wantSatisfactionComment && !remote.has(marker)) {
        const label = SATISFACTION_SCALE[t.satisfaction_score!] ?? '';
        await system.addComment(key, { body: `Customer satisfaction: ${t.satisfaction_score} (${label}) from ${t.satisfaction_by}\n${t.satisfaction_message ?? ''}`, marker });
      }
    }

    const { add, remove } = await attachmentsToSync(pool, t.id);
    if (add.length || remove.length) {
      const there = (await system.getIssue(key))?.attachments ?? [];
      for (const a of add) {
        let done = there.find((x) => x.filename === a.stored_name);
        if (!done) {
          const content = await store.get(a.stored_name);
          if (!content) throw new Error(`attachment ${a.id} (${a.stored_name}) is missing from the attachment store`);
          done = await system.addAttachment(key, { filename: a.stored_name, mimeType: a.mime_type, content });
        }
        await markAttachmentSynced(pool, a.id, done.id);
        result.attachments++;
      }
      for (const r of remove) {
        const id = r.jira_attachment_id ?? there.find((x) => x.filename === r.stored_name)?.id;
        if (id) await system.deleteAttachment(id);
        await markAttachmentSynced(pool, r.id, null);
        // deleted by a user: the bytes go too, once the system of record has dropped its copy
        await store.remove(r.stored_name);
        result.attachments++;
      }
    }

    if (t.synced_version < t.local_version) {
      const remote = await system.getIssue(key);
      if (!remote) throw new Error(`issue ${key} of ticket ${t.id} no longer exists in ${system.name}`);
      if (remote.status !== t.status) await system.transitionTo(key, t.status);
      if (remote.priority !== t.priority && isTicketPriority(t.priority)) await system.setPriority(key, t.priority);
      if (t.satisfaction_score !== null && remote.satisfaction !== t.satisfaction_score) await system.setSatisfaction(key, t.satisfaction_score);
      result.fields = true;
    }
    await markSynced(pool, t.id, t.local_version);
    return result;
  });
}

/** Applies one issue as the system of record has it to its local ticket (if the portal knows it). */
export async function applyIssue(deps: TicketSyncDeps, issue: RemoteIssue): Promise<{ ticket: string | null; comments: number; withdrawn?: number }> {
  const { pool, system } = deps;
  let t = await findTicketByJiraKey(pool, issue.key);
  if (!t) {
    // created by a run that crashed before recording the key
    const id = ticketIdFromLabels(issue.labels);
    t = id ? await findTicketById(pool, id) : null;
    if (!t) return { ticket: null, comments: 0 };
    await markCreated(pool, t.id, issue.key);
  }
  const updated = issue.updated ? new Date(issue.updated) : new Date();
  await applyRemoteIssue(
    pool,
    t.id,
    { key: issue.key, status: issue.status, priority: issue.priority, assignee: issue.assignee, satisfaction: issue.satisfaction, updated: updated.toISOString() },
    TICKET_STATUSES,
  );
  let comments = 0;
  let withdrawn = 0;
  const ticket = { ...t, jira_key: issue.key };
  const stored = await storedRemoteCommentIds(pool, t.id);
  for (const c of await system.listComments(issue.key)) {
    if (c.marker) continue; // written by the portal: already a local comment, and its notice went out when it was made
    if (c.internal) {
      // Kept from the customer there, so kept from the portal: not stored, not notified, never a first response (a
      // note between engineers answers nobody). Pulled earlier while public: taken back, its notice cannot be.
      const id = t.id;
      if (stored.has(c.id) && (await withTransaction(pool, (tx) => withdrawRemoteComment(tx, id, c.id)))) withdrawn++;
      continue;
    }
    if (stored.has(c.id)) continue; // pulled before (a run at the same time is held off by the insert below)
    const byProvider = !c.authorIsCustomer && !(c.authorEmail && (await isCustomerUser(pool, t.customer_id, c.authorEmail)));
    // The comment and its channel deliveries (with their outbox jobs) commit together: a run that crashes in between
    // leaves neither, and of two runs at once (two workers, a retry) only the one whose insert went in (the unique
    // remote id) records the notice; `channel_delivery`'s unique (channel, event key) holds it to one per channel too.
    const recorded = await withTransaction(pool, async (tx) => {
      const comment = { id: randomUUID(), ticket_id: t.id, message: c.body, author: c.author, created: c.created, jira_comment_id: c.id, by_provider: byProvider };
      if (!(await insertRemoteComment(tx, comment))) return null;
      const outbox = enqueueInTransaction(tx);
      if (byProvider && deps.notices) await recordChannelEvent(tx, outbox.enqueue, ticketCommentEvent(ticket, comment, deps.notices.publicUrl));
      return outbox.recorded;
    });
    if (!recorded) continue;
    comments++;
    if (deps.notices) await publishAfterCommit(deps.notices.enqueue, recorded);
  }
  return { ticket: t.id, comments, ...(withdrawn ? { withdrawn } : {}) };
}

export async function pullIssue(deps: TicketSyncDeps, key: string) {
  const issue = await deps.system.getIssue(key);
  if (!issue) return { skipped: `issue ${key} not found` };
  return applyIssue(deps, issue);
}

/** Issues updated since the last pull, then the local writes still waiting (a lost enqueue, an old failure). */
export async function pullChanges(deps: TicketSyncDeps, now = new Date()): Promise<{ issues: number; comments: number; caught_up: number; uploads_dropped: number }> {
  const cursor = (await readCursor(deps.pool, PULL_CURSOR)) ?? new Date(now.getTime() - FIRST_PULL_LOOKBACK_MS);
  let latest = cursor;
  let issues = 0;
  let comments = 0;
  for await (const issue of deps.system.searchUpdatedSince(new Date(cursor.getTime() - PULL_OVERLAP_MS))) {
    const applied = await applyIssue(deps, issue);
    if (applied.ticket) issues++;
    comments += applied.comments;
    const u = new Date(issue.updated);
    if (!Number.isNaN(u.getTime()) && u > latest) latest = u;
  }
  await writeCursor(deps.pool, PULL_CURSOR, latest);
  let caughtUp = 0;
  for (const id of await unsyncedTicketIds(deps.pool, 60)) {
    await syncTicket(deps, id);
    caughtUp++;
  }
  const abandoned = await dropAbandonedUploads(deps.pool);
  for (const name of abandoned) await deps.store.remove(name);
  return { issues, comments, caught_up: caughtUp, uploads_dropped: abandoned.length };
}

