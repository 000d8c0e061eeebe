/**
 * Real adapter for the granted GCP projects: asks Cloud Resource Manager v3 `projects:search` AS the
 * customer's service account, so the answer is exactly what that account was granted. The provider's own
 * credentials (`sourceToken`) mint a short-lived token for it through IAM Credentials `generateAccessToken`
 * (the provider needs roles/iam.serviceAccountTokenCreator on it).
 * Docs: https://cloud.google.com/resource-manager/reference/rest/v3/projects/search,
 * https://cloud.google.com/iam/docs/reference/credentials/rest/v1/projects.serviceAccounts/generateAccessToken
 */
import type { CloudProjects, GcpProject } from '../../ports/cloud-projects.ts';

export interface RealCloudProjectsOptions {
  /** An OAuth access token of the provider (application default credentials in production). */
  sourceToken: () => Promise<string>;
  iamCredentialsUrl?: string;
  resourceManagerUrl?: string;
  fetch?: typeof fetch;
}

/** Answered as 502: the upstream refused or failed, not the caller. */
export class CloudProjectsError extends Error {
  readonly statusCode = 502;
  /** The message names the upstream call and its answer: worth showing to the admin who asked. */
  readonly expose = true;
}

// '@' stays literal, as Google's own clients send resource names ({+name}); anything else unusual is escaped.
const pathSegment = (s: string) => encodeURIComponent(s).replace(/%40/g, '@');

const READ_ONLY_SCOPE = 'https://www.googleapis.com/auth/cloud-platform.read-only';
const MAX_PAGES = 50;

async function googleJson<T>(res: Response, what: string): Promise<T> {
  const body = (await res.json().catch(() => ({}))) as T & { error?: { message?: string } };
  if (!res.ok) throw new CloudProjectsError(`${what} failed: ${res.status} ${body.error?.message ?? res.statusText}`);
  return body;
}

export function realCloudProjects(opts: RealCloudProjectsOptions): CloudProjects {
  const iam = (opts.iamCredentialsUrl ?? 'https://iamcredentials.googleapis.com').replace(/\/$/, '');
  const crm = (opts.resourceManagerUrl ?? 'https://cloudresourcemanager.googleapis.com').replace(/\/$/, '');
  const http = opts.fetch ?? fetch;

  async function tokenFor(serviceAccount: string): Promise<string> {
    const res = await http(`${iam}/v1/projects/-/serviceAccounts/${pathSegment(serviceAccount)}:generateAccessToken`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await opts.sourceToken()}`, 'content-type': 'application/json' },
      body: JSON.stringify({ scope: [READ_ONLY_SCOPE], lifetime: '300s' }),
    });
    return (await googleJson<{ accessToken: string }>(res, 'generateAccessToken')).accessToken;
  }

  return {
    async grantedProjects(customer) {
      const token = await tokenFor(customer.service_account_email);
      const projects: GcpProject[] = [];
      let pageToken = '';
      for (let page = 0; page < MAX_PAGES; page++) {
        const q = new URLSearchParams({ query: 'state:ACTIVE', pageSize: '500' });
        if (pageToken) q.set('pageToken', pageToken);
        const res = await http(`${crm}/v3/projects:search?${q}`, { headers: { authorization: `Bearer ${token}` } });
        const body = await googleJson<{ projects?: { projectId: string; displayName?: string }[]; nextPageToken?: string }>(res, 'projects.search');
        for (const p of body.projects ?? []) projects.push({ project_id: p.projectId, project_name: p.displayName ?? p.projectId });
        pageToken = body.nextPageToken ?? '';
        if (!pageToken) break;
      }
      return projects.sort((a, b) => a.project_id.localeCompare(b.project_id));
    },
  };
}
