/**
 * The Advanced Settings script generator (spec 001 §2.4): a cloud-shell script that grants (or revokes)
 * the customer's service account the read roles CommandCenter needs on the given GCP projects.
 */
import { InputError, required } from '../input-error.ts';

/** Read access for billing labels, inventory, recommendations and system health. */
export const SERVICE_ACCOUNT_ROLES = [
  'roles/browser',
  'roles/cloudasset.viewer',
  'roles/recommender.viewer',
  'roles/monitoring.viewer',
] as const;

/** GCP project id rule: 6–30 characters, lower-case letters, digits and hyphens, starting with a letter. */
const PROJECT_ID_RE = /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/;

/** A list, or one comma-separated string as typed in the form; spaces removed, duplicates dropped. */
export function parseProjectIds(raw: string[] | string): string[] {
  const items = (Array.isArray(raw) ? raw : raw.split(',')).flatMap((s) => s.split(',')).map((s) => s.replace(/\s+/g, '')).filter(Boolean);
  if (items.length === 0) throw required('project_ids');
  const bad = items.filter((p) => !PROJECT_ID_RE.test(p));
  if (bad.length) throw new InputError(`Invalid project id(s): ${bad.join(', ')}`);
  return [...new Set(items)];
}

export function serviceAccountScript(action: 'grant' | 'revoke', serviceAccountEmail: string, projectIds: string[]): string {
  const verb = action === 'grant' ? 'add-iam-policy-binding' : 'remove-iam-policy-binding';
  const lines = [
    '#!/usr/bin/env bash',
    `# ${action === 'grant' ? 'Grant' : 'Revoke'} CommandCenter read access for ${serviceAccountEmail}`,
    '# Run in Cloud Shell as a user allowed to change IAM policies on these projects.',
    'set -euo pipefail',
    `SERVICE_ACCOUNT="serviceAccount:${serviceAccountEmail}"`,
    `PROJECTS=(${projectIds.join(' ')})`,
    `ROLES=(${SERVICE_ACCOUNT_ROLES.join(' ')})`,
    'for project in "${PROJECTS[@]}"; do',
    '  for role in "${ROLES[@]}"; do',
    `    gcloud projects ${verb} "$project" --member="$SERVICE_ACCOUNT" --role="$role" --condition=None --quiet > /dev/null`,
    '  done',
    `  echo "${action === 'grant' ? 'granted' : 'revoked'}: $project"`,
    'done',
  ];
  return `${lines.join('\n')}\n`;
}
