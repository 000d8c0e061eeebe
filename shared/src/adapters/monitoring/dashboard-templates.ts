/**
 * Customer dashboard templates (infra/grafana/customer-dashboards/*.json): Grafana dashboard JSON as Grafana exports
 * it "for sharing externally", so an operator can edit one in Grafana and export it back. Placeholders:
 * `${DS_CLOUD_MONITORING}` (the customer's Cloud Monitoring data source uid) and `${CC_CUSTOMER_NAME}`; a custom
 * template variable named `project` gets the customer's granted projects as its options.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MonitoringCustomer } from '../../ports/monitoring.ts';

export const TEMPLATE_DIR = fileURLToPath(new URL('../../../../infra/grafana/customer-dashboards', import.meta.url));

export interface DashboardTemplate {
  /** File name, for messages. */
  file: string;
  uid: string;
  title: string;
  json: Record<string, unknown>;
}

/** Every template of `dir`, in file-name order (the first is the dashboard the System Health screen embeds). */
export function loadDashboardTemplates(dir = TEMPLATE_DIR): DashboardTemplate[] {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  if (files.length === 0) throw new Error(`no dashboard templates in ${dir}`);
  return files.map((file) => {
    const json = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;
    if (typeof json.uid !== 'string' || !/^[a-zA-Z0-9_-]{1,40}$/.test(json.uid)) throw new Error(`${file}: uid must be 1-40 letters, digits, - or _`);
    if (typeof json.title !== 'string' || !json.title) throw new Error(`${file}: title missing`);
    return { file, uid: json.uid, title: json.title, json };
  });
}

function substitute(value: unknown, vars: Record<string, string>): unknown {
  if (typeof value === 'string') return value.replace(/\$\{(DS_CLOUD_MONITORING|CC_CUSTOMER_NAME)\}/g, (_m, name: string) => vars[name]);
  if (Array.isArray(value)) return value.map((v) => substitute(v, vars));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, vars)]));
  return value;
}

/**
 * The dashboard body for POST /api/dashboards/db: placeholders filled, export-only keys dropped, id null (found by
 * uid). No version: Grafana then answers 412 version-mismatch for a dashboard that exists, unless overwrite is set,
 * so Initialize never replaces a dashboard and Rebuild always does.
 */
export function renderDashboard(t: DashboardTemplate, customer: MonitoringCustomer, datasourceUid: string): Record<string, unknown> {
  const { __inputs: _i, __requires: _r, __elements: _e, version: _v, ...rest } = t.json;
  const out = substitute(rest, { DS_CLOUD_MONITORING: datasourceUid, CC_CUSTOMER_NAME: customer.customer_name }) as Record<string, unknown>;
  const templating = out.templating as { list?: Record<string, unknown>[] } | undefined;
  const project = templating?.list?.find((v) => v.name === 'project' && v.type === 'custom');
  if (project) {
    const options = customer.projects.map((p, i) => ({ text: p.project_name || p.project_id, value: p.project_id, selected: i === 0 }));
    // Grafana's custom variable syntax: comma-separated, "text : value" pairs (GCP project names hold no ',' or ':')
    project.query = options.map((o) => (o.text === o.value ? o.value : `${o.text} : ${o.value}`)).join(',');
    project.options = options;
    project.current = options[0] ? { text: options[0].text, value: options[0].value } : {};
  }
  return { ...out, id: null, uid: t.uid };
}
