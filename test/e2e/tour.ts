/**
 * A tour of every route of the specification as the four demo users (admin, customer, viewer, and a customer whose
 * customer has no billing account), for the phone and accessibility E2E: the paths with real ids, and a visit that
 * waits until the screen has settled.
 */
import type { Page } from 'playwright-core';
import type { Pool } from 'pg';

export const TOUR_USERS = ['admin@commandcenter.local', 'alice@acme.example', 'victor@acme.example', 'bob@initech.example'] as const;

/** Every route of spec 001 §2.1, ids filled from the seeded database (a ticket is raised first when there is none). */
export async function tourPaths(pool: Pool): Promise<string[]> {
  const entity = (await pool.query<{ id: string }>(`SELECT id FROM entity ORDER BY id LIMIT 1`)).rows[0]?.id ?? 'none';
  const ticket = (await pool.query<{ id: string }>(`SELECT id FROM ticket WHERE customer_id = 'acme-corp' ORDER BY created_at LIMIT 1`)).rows[0]?.id;
  return [
    '/',
    '/systemhealth',
    '/systemhealth/kiosk/acme-corp',
    '/anomalydetection',
    '/workspacelicense',
    '/workspacelicense/license',
    '/workspacelicense/order',
    '/projectprovisioning',
    '/projectprovisioning/new',
    '/inventory',
    '/inventory/view',
    '/supportrequest',
    '/supportrequest/new',
    ...(ticket ? [`/supportrequest/view/${ticket}`] : []),
    '/playbook',
    '/entitymanagement',
    '/entitymanagement/new',
    `/entitymanagement/update/${encodeURIComponent(entity)}`,
    '/customermanagement',
    '/customermanagement/new',
    '/customermanagement/update/acme-corp',
    '/customermanagement/view',
    '/usermanagement',
    '/usermanagement/new',
    `/usermanagement/update/${encodeURIComponent('victor@acme.example')}`,
    '/billing/reconcile',
    '/billing/alerts',
    '/billing/viewers',
  ];
}

/**
 * Opens a path and waits until its heading shows and the network has been quiet for a moment; with `settle`, the
 * inventory graph's layout has settled too (for a picture of it).
 */
export async function visit(page: Page, base: string, path: string, { settle = false } = {}): Promise<void> {
  await page.goto(`${base}${path}`);
  await page
    .locator('h1, main[aria-label="System Health dashboard"], [role="alert"]')
    .first()
    .waitFor({ timeout: 15_000 })
    .catch(() => undefined);
  await page.waitForLoadState('networkidle').catch(() => undefined);
  if (settle && path === '/inventory/view') {
    // the graph is pictured once its layout has settled (a 3 s animation, then the fit), not mid-flight
    const ready = await page.locator('[data-ready="true"]').waitFor({ timeout: 15_000 }).then(() => true, () => false);
    if (ready) await page.waitForTimeout(3800);
  }
  await page.waitForTimeout(300);
}

/** The file name part of a path: '/billing/alerts' → 'billing-alerts', '/' → 'billing'. */
export function shotName(path: string): string {
  return path === '/' ? 'billing' : path.slice(1).replace(/[^a-z0-9]+/gi, '-').slice(0, 60);
}
