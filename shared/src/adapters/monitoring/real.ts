/**
 * MONITORING=grafana: provisions the customer's dashboard in Grafana through its HTTP API
 * (https://grafana.com/docs/grafana/latest/developers/http_api/). No maintained Node client exists, so this is a small
 * typed client on fetch.
 *
 * Every call uses server-admin Basic auth: /api/admin/* and /api/orgs* accept nothing else, and a service-account
 * token is bound to one organisation while each customer gets its own. Org-scoped calls name the organisation in
 * X-Grafana-Org-Id (the admin is made an Admin member of it first).
 *
 * Each step is an "ensure": create, and read Grafana's duplicate answer (organisation 409, user 412, folder 409,
 * data source 409, dashboard 412) as "already there", so a run that died half-way is completed by the next one.
 * No retries here: the monitoring queue retries the whole job with backoff, and the steps make that safe.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MonitoringAccount, MonitoringCustomer, MonitoringService } from '../../ports/monitoring.ts';
import { generateMonitoringPassword } from '../../ports/monitoring.ts';
import { grafanaDashboardLink } from '../../monitoring/kiosk-url.ts';
import { loadDashboardTemplates, renderDashboard, type DashboardTemplate } from './dashboard-templates.ts';

export interface GrafanaOptions {
  /** Grafana's root URL as the worker reaches it, e.g. https://grafana.msp.example */
  url: string;
  /** A Grafana server admin (Basic auth must be enabled: [auth.basic] enabled = true, the default). */
  adminUser: string;
  adminPassword: string;
  /** The address users' browsers reach Grafana at (dashboard links); default `url`. */
  publicUrl?: string;
  templates?: DashboardTemplate[];
  /**
   * The JSON key of the customer's service account, or null: the data source then authenticates as Grafana's own
   * Google identity and impersonates the customer's service account (which must grant it Token Creator).
   */
  serviceAccountKey?: (customer: MonitoringCustomer) => Promise<string | null>;
  fetch?: typeof fetch;
}

/** A non-2xx answer from Grafana, with its `message` (never a request body: those carry passwords). */
export class GrafanaError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'GrafanaError';
  }
}

/** Names and uids of what CommandCenter owns in each customer organisation (uids are unique per organisation). */
export const FOLDER_UID = 'cc-system-health';
export const FOLDER_TITLE = 'System Health';
export const DATASOURCE_UID = 'cc-cloud-monitoring';
export const DATASOURCE_NAME = 'Google Cloud Monitoring';
const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';

/** `{dir}/{customer_id}.json` when present, else null (impersonation). */
export function serviceAccountKeyFromDir(dir: string): (customer: MonitoringCustomer) => Promise<string | null> {
  return async (customer) => {
    try {
      return await readFile(join(dir, `${customer.customer_id}.json`), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  };
}

export function grafanaMonitoringService(opts: GrafanaOptions): MonitoringService {
  const doFetch = opts.fetch ?? fetch;
  const base = opts.url.replace(/\/$/, '');
  const publicUrl = (opts.publicUrl ?? opts.url).replace(/\/$/, '');
  const templates = opts.templates ?? loadDashboardTemplates();
  const auth = `Basic ${Buffer.from(`${opts.adminUser}:${opts.adminPassword}`).toString('base64')}`;

  async function call<T>(method: string, path: string, body?: unknown, orgId?: number): Promise<T> {
    const headers: Record<string, string> = { authorization: auth, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (orgId !== undefined) headers['x-grafana-org-id'] = String(orgId);
    const res = await doFetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok) {
      let detail = '';
      try {
        detail = (JSON.parse(text) as { message?: string }).message ?? '';
      } catch {
        /* not JSON (a proxy's page): the status line is enough */
      }
      throw new GrafanaError(res.status, `Grafana ${method} ${path.split('?')[0]} answered ${res.status}${detail ? `: ${detail}` : ''}`);
    }
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** `call`, with the listed statuses returned as null (Grafana's "already exists" / "not found"). */
  async function tolerate<T>(statuses: number[], run: () => Promise<T>): Promise<T | null> {
    try {
      return await run();
    } catch (err) {
      if (err instanceof GrafanaError && statuses.includes(err.status)) return null;
      throw err;
    }
  }

  const enc = encodeURIComponent;

  async function ensureOrg(customer: MonitoringCustomer): Promise<number> {
    // The customer id names the organisation: it never changes, while the customer name may.
    const name = customer.customer_id;
    const found = await tolerate([404], () => call<{ id: number }>('GET', `/api/orgs/name/${enc(name)}`));
    let orgId = found?.id;
    if (orgId === undefined) {
      // 409: created meanwhile by a concurrent run. The document says orgId is an int64; older servers sent a string.
      const created = await tolerate([409], () => call<{ orgId: number | string }>('POST', '/api/orgs', { name }));
      orgId = created ? Number(created.orgId) : (await call<{ id: number }>('GET', `/api/orgs/name/${enc(name)}`)).id;
    }
    // The creator of an organisation is its Admin; one made by someone else needs us added (409: member already).
    await tolerate([409], () => call('POST', `/api/orgs/${orgId}/users`, { loginOrEmail: opts.adminUser, role: 'Admin' }));
    return orgId;
  }

  async function ensureUser(customer: MonitoringCustomer, orgId: number, password: string): Promise<number> {
    const login = customer.customer_name;
    const created = await tolerate([412], () =>
      call<{ id: number }>('POST', '/api/admin/users', { name: customer.customer_name, login, password, orgId }),
    );
    let userId = created?.id;
    if (userId === undefined) {
      // 412: the login exists (an earlier run, or made by hand): take it over with the password we keep
      userId = (await call<{ id: number }>('GET', `/api/users/lookup?loginOrEmail=${enc(login)}`)).id;
      await call('PUT', `/api/admin/users/${userId}/password`, { password });
    }
    await tolerate([409], () => call('POST', `/api/orgs/${orgId}/users`, { loginOrEmail: login, role: 'Viewer' }));
    return userId;
  }

  async function ensureFolder(orgId: number, userId: number): Promise<void> {
    const created = await tolerate([409], () => call('POST', '/api/folders', { uid: FOLDER_UID, title: FOLDER_TITLE }, orgId));
    if (!created) {
      // 409 is also a folder of the same title under another uid: ours must be the one there
      const ours = await tolerate([404], () => call('GET', `/api/folders/${FOLDER_UID}`, undefined, orgId));
      if (!ours) throw new GrafanaError(409, `Grafana has a folder titled '${FOLDER_TITLE}' that CommandCenter did not make (uid is not ${FOLDER_UID})`);
    }
    // Replaces every permission of the folder: the customer's user may view, the org's Viewer and Editor roles nothing.
    await call('POST', `/api/folders/${FOLDER_UID}/permissions`, { items: [{ userId, permission: 1 }] }, orgId);
  }

  async function datasourceBody(customer: MonitoringCustomer) {
    const defaultProject = customer.projects[0]?.project_id ?? '';
    const raw = opts.serviceAccountKey ? await opts.serviceAccountKey(customer) : null;
    const common = { uid: DATASOURCE_UID, name: DATASOURCE_NAME, type: 'stackdriver', access: 'proxy', isDefault: true };
    if (raw) {
      const key = JSON.parse(raw) as { client_email: string; private_key: string; project_id?: string; token_uri?: string };
      return {
        ...common,
        jsonData: { authenticationType: 'jwt', clientEmail: key.client_email, defaultProject: defaultProject || key.project_id || '', tokenUri: key.token_uri ?? GOOGLE_TOKEN_URI },
        secureJsonData: { privateKey: key.private_key },
      };
    }
    return {
      ...common,
      jsonData: { authenticationType: 'gce', defaultProject, usingImpersonation: true, serviceAccountToImpersonate: customer.service_account_email },
    };
  }

  /** The uid dashboards must reference: ours, or that of a same-named data source someone made before us. */
  async function ensureDatasource(customer: MonitoringCustomer, orgId: number, repair: boolean): Promise<string> {
    const body = await datasourceBody(customer);
    const created = await tolerate([409], () => call('POST', '/api/datasources', body, orgId));
    if (created) return DATASOURCE_UID;
    const existing = await tolerate([404], () => call<{ uid: string }>('GET', `/api/datasources/uid/${DATASOURCE_UID}`, undefined, orgId));
    const uid = existing?.uid ?? (await call<{ uid: string }>('GET', `/api/datasources/name/${enc(DATASOURCE_NAME)}`, undefined, orgId)).uid;
    if (repair) await call('PUT', `/api/datasources/uid/${enc(uid)}`, { ...body, uid }, orgId);
    return uid;
  }

  async function ensureDashboards(customer: MonitoringCustomer, orgId: number, datasourceUid: string, overwrite: boolean): Promise<void> {
    for (const t of templates) {
      const payload = {
        dashboard: renderDashboard(t, customer, datasourceUid),
        folderUid: FOLDER_UID,
        overwrite,
        message: overwrite ? 'CommandCenter: Rebuild Dashboard' : 'CommandCenter: Initialize Dashboard',
      };
      try {
        await call('POST', '/api/dashboards/db', payload, orgId);
      } catch (err) {
        // 412 without overwrite: version-mismatch means ours is there already; name-exists is someone else's
        if (!(err instanceof GrafanaError) || err.status !== 412 || overwrite) throw err;
        const ours = await tolerate([404], () => call<{ meta: { folderUid?: string } }>('GET', `/api/dashboards/uid/${enc(t.uid)}`, undefined, orgId));
        if (!ours || ours.meta.folderUid !== FOLDER_UID) throw new GrafanaError(412, `${err.message} (${t.file}; Rebuild Dashboard overwrites it)`);
      }
    }
  }

  async function provision(customer: MonitoringCustomer, password: string, rebuild: boolean): Promise<MonitoringAccount> {
    const orgId = await ensureOrg(customer);
    const userId = await ensureUser(customer, orgId, password);
    await ensureFolder(orgId, userId);
    const datasourceUid = await ensureDatasource(customer, orgId, rebuild);
    await ensureDashboards(customer, orgId, datasourceUid, rebuild);
    return {
      login: customer.customer_name,
      password,
      dashboardUrl: grafanaDashboardLink(publicUrl, templates[0].uid, orgId),
      remote: { orgId, userId, folderUid: FOLDER_UID, datasourceUid },
    };
  }

  return {
    name: 'grafana',
    initialise: (customer, o = {}) => provision(customer, o.password ?? generateMonitoringPassword(), false),
    rebuild: (customer, o) => provision(customer, o.password, true),
  };
}
