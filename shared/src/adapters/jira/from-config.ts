import type { Config } from '../../config.ts';
import type { Pool } from '../../db/pool.ts';
import type { TicketSystem } from '../../ports/ticket-system.ts';
import { jiraCloudTicketSystem, parsePriorityMap } from './real.ts';
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
