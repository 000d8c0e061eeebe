/**
 * The provisioning e-mails (docs/decisions-provisioning.md, E-mails): the requester and the customer's alert list
 * hear when a request is approved (the api's approve route), created or failed (the worker). Both processes
 * enqueue through here, so the texts and the notify keys — which make a repeated enqueue a no-op — exist once.
 */
import { EMAIL_RE } from '../constants.ts';
import { listMembers } from '../db/customers-write.ts';
import type { Queryable } from '../db/pool.ts';
import type { ProjectRequestRow } from '../db/provisioning.ts';
import { screenLink } from '../links.ts';
import type { Enqueue } from '../producer.ts';
import type { NotifyCommand } from '../queues.ts';
import { STEP_LABELS } from './rules.ts';
import { recordChannelEvent } from '../notification-channels/queue.ts';
import { eventFromNotice } from '../notification-channels/notices.ts';

export type ProvisioningEvent = 'approved' | 'active' | 'failed';

/** The channel event of each provisioning e-mail: approval is a decision, Active the project created. */
const CHANNEL_EVENT_OF = { approved: 'project_request.decided', active: 'project_request.created', failed: 'project_request.failed' } as const;

type MailRequest = Pick<ProjectRequestRow, 'id' | 'customer_id' | 'project_name' | 'folder_name' | 'requester' | 'failed_step' | 'error' | 'step_log'>;

/**
 * One key per event and request; a Failed request that an admin retries can fail again, so its key counts the
 * failures so far (a repeat of the same failure keeps the key and is dropped by notify).
 */
export function provisioningMailKey(event: ProvisioningEvent, r: MailRequest): string {
  if (event !== 'failed') return `provisioning-${event}-${r.id}`;
  return `provisioning-failed-${r.id}-${r.step_log.filter((e) => e.outcome === 'failed').length}`;
}

export function provisioningMail(event: ProvisioningEvent, r: MailRequest, customerName: string, publicUrl: string): Omit<NotifyCommand, 'to'> {
  const link = screenLink(publicUrl, '/projectprovisioning', { customerId: r.customer_id });
  const where = `in folder ${r.folder_name} for ${customerName}`;
  const key = provisioningMailKey(event, r);
  if (event === 'approved') {
    return {
      subject: `Project ${r.project_name} approved`,
      text: `The request for project ${r.project_name} ${where} was approved. CommandCenter is creating it now.\n\nProject provisioning: ${link}\n`,
      key,
    };
  }
  if (event === 'active') {
    return {
      subject: `Project ${r.project_name} successfully created`,
      text: `Project ${r.project_name} ${where} was created: billing account linked, labels, budget, quotas and the default admin set.\n\nProject provisioning: ${link}\n`,
      key,
    };
  }
  const step = r.failed_step ? STEP_LABELS[r.failed_step] : 'Unknown step';
  return {
    subject: `Error creating Project ${r.project_name}`,
    text: `Creating project ${r.project_name} ${where} failed.\n\nStep: ${step}\nError: ${r.error ?? ''}\n\nAn admin can retry it from Project provisioning: ${link}\n`,
    key,
  };
}

/**
 * The requester and the customer's alert list, each once; entries that are not e-mail addresses are left out, and so
 * are customerViewers (limited to the projects of their filter, they are not told about the customer's others).
 */
export async function provisioningRecipients(db: Queryable, r: Pick<ProjectRequestRow, 'customer_id' | 'requester'>): Promise<string[]> {
  const alert = await listMembers(db, r.customer_id, 'alert');
  const to = [...new Set([r.requester, ...alert])].filter((a) => EMAIL_RE.test(a));
  const { rows } = await db.query<{ id: string }>(`SELECT id FROM app_user WHERE id = ANY($1::text[]) AND role = 'customerViewer'`, [to]);
  const viewers = new Set(rows.map((v) => v.id));
  return to.filter((a) => !viewers.has(a));
}

/** Enqueues the event's e-mail (nothing when nobody is to hear it). */
export async function enqueueProvisioningMail(
  db: Queryable,
  enqueue: Enqueue,
  event: ProvisioningEvent,
  r: MailRequest,
  customerName: string,
  publicUrl: string,
): Promise<void> {
  const mail = provisioningMail(event, r, customerName, publicUrl);
  // The notification channels hear of it in the same transaction (once per channel: the e-mail's key).
  await recordChannelEvent(db, enqueue, eventFromNotice(CHANNEL_EVENT_OF[event], mail.key, r.customer_id, mail,
    screenLink(publicUrl, '/projectprovisioning', { customerId: r.customer_id }),
    { project_request_id: r.id, project_name: r.project_name, folder_name: r.folder_name, requester: r.requester, event, failed_step: r.failed_step, error: r.error },
    [{ name: 'Project', value: r.project_name }, { name: 'Folder', value: r.folder_name }, { name: 'Requested by', value: r.requester }]));
  const to = await provisioningRecipients(db, r);
  if (to.length === 0) return;
  await enqueue('notify', 'notify.send', { to, ...mail });
}
