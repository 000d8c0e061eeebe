import type { Config } from '@cc/shared/config.ts';
import type { Pool } from '@cc/shared/db/pool.ts';
import { readFileSync } from 'node:fs';
import { gcsAttachmentStore, localAttachmentStore, serviceAccountKey, type AttachmentStore } from '@cc/shared/ports/attachment-store.ts';
import type { TicketSystem } from '@cc/shared/ports/ticket-system.ts';
import { jiraCloudTicketSystem, parsePriorityMap } from './cloud.ts';
import { localTicketSystem } from './local.ts';

/** The ticket system of record the configuration names (TICKETS=local|jira). */
export function ticketSystemFromConfig(config: Config, pool: Pool): TicketSystem {
  if (config.TICKETS === 'jira') {
    return jiraCloudTicketSystem({
      site: config.JIRA_SITE,
      email: config.JIRA_EMAIL,
      apiToken: config.JIRA_API_TOKEN,
      project: config.JIRA_PROJECT,
      issueType: config.JIRA_ISSUE_TYPE,
      priorities: parsePriorityMap(config.JIRA_PRIORITIES),
      satisfactionField: config.JIRA_SATISFACTION_FIELD || undefined,
    });
  }
  return localTicketSystem(pool, { project: config.JIRA_PROJECT });
}

/** The worker only reads attachment bytes (to send them to Jira); signing is the api's business. */
export function attachmentReaderFromConfig(config: Config): AttachmentStore {
  if (config.ATTACHMENT_STORE === 'gcs') {
    return gcsAttachmentStore({
      bucket: config.ATTACHMENT_BUCKET,
      endpoint: config.ATTACHMENT_GCS_ENDPOINT,
      ...serviceAccountKey(readFileSync(config.ATTACHMENT_GCS_KEY_FILE, 'utf8')),
    });
  }
  return localAttachmentStore({ dir: config.ATTACHMENT_DIR, secret: 'the worker signs nothing' });
}
