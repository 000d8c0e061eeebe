/**
 * The one place that builds the System Health iframe address (spec 000 §2: "embedded in kiosk mode … using the
 * customer's external link if set, otherwise the built-in link"; 001 §2.4: blank means the built-in one).
 * Pure, so the api (grafana_link in the customer answer) and the web screen build the same address.
 */

/** Spec 000 §9: the embedded dashboard is 710 px high. */
export const SYSTEM_HEALTH_IFRAME_HEIGHT_PX = 710;

/**
 * The built-in dashboard CommandCenter serves itself (MONITORING=local): a web route beside /systemhealth, so the
 * route gate (systemhealth_*) and the customer picker apply to it as to the screen that embeds it.
 */
export const localKioskPath = (customerId: string) => `/systemhealth/kiosk/${encodeURIComponent(customerId)}`;

/**
 * The Grafana dashboard provisioned for the customer (MONITORING=grafana): `/d/{uid}` in the customer's organisation.
 * The slug after the uid is optional for Grafana; orgId makes the link open in the right organisation.
 */
export function grafanaDashboardLink(grafanaUrl: string, dashboardUid: string, orgId: number): string {
  return `${grafanaUrl.replace(/\/$/, '')}/d/${encodeURIComponent(dashboardUid)}?orgId=${orgId}`;
}

/** Parameters Grafana needs to hide its chrome; since Grafana 11.3 `kiosk` alone no longer hides time picker and variables. */
const KIOSK_PARAMS = ['kiosk', '_dash.hideTimePicker=true', '_dash.hideVariables=true'];
const KIOSK_NAMES = new Set(['kiosk', '_dash.hideTimePicker', '_dash.hideVariables']);

/** An absolute http(s) link, or null for blank or anything else (the customer form only stores http(s) links). */
function externalLink(raw: string | null | undefined): URL | null {
  const s = raw?.trim() ?? '';
  if (!s) return null;
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u : null;
  } catch {
    return null;
  }
}

/**
 * The kiosk address: the external link when set, else `builtInLink` (absolute, or a path on our own origin), with
 * `kiosk` (bare, as Grafana documents it; a `kiosk=tv` in the link is replaced) and the two `_dash.*` switches.
 * Other parameters (orgId, from/to, var-*) and the fragment are kept.
 */
export function kioskUrl(customer: { grafana_external_link?: string | null }, builtInLink: string): string {
  const external = externalLink(customer.grafana_external_link);
  const relative = !external && builtInLink.startsWith('/');
  const url = external ?? new URL(builtInLink, 'http://relative.invalid');
  const kept = [...url.searchParams].filter(([name]) => !KIOSK_NAMES.has(name));
  const query = [new URLSearchParams(kept).toString(), ...KIOSK_PARAMS].filter(Boolean).join('&');
  const head = relative ? url.pathname : `${url.origin}${url.pathname}`;
  return `${head}?${query}${url.hash}`;
}
