/**
 * A tour of every route of the specification as the four demo users (admin, customer, viewer, and a customer whose
 * customer has no billing account), for the phone and accessibility E2E: the paths with real ids, and a visit that
 * waits until the screen has settled.
 */
import type { Page } from 'playwright-core';
import type { Pool } from 'pg';

export const TOUR_USERS = ['admin@commandcenter.local', 'alice@acme.example', 'victor@acme.example', 'bob@initech.example'] as const;

/**
 * Every route of spec 001 §2.1, ids filled from the seeded database. The seed raises no ticket: with `raiseTicket`,
 * one is written for Acme first, so that the ticket's own page is toured too.
 */
export async function tourPaths(pool: Pool, { raiseTicket = false } = {}): Promise<string[]> {
  const entity = (await pool.query<{ id: string }>(`SELECT id FROM entity ORDER BY id LIMIT 1`)).rows[0]?.id ?? 'none';
  const first = async () => (await pool.query<{ id: string }>(`SELECT id FROM ticket WHERE customer_id = 'acme-corp' ORDER BY created_at LIMIT 1`)).rows[0]?.id;
  let ticket = await first();
  if (!ticket && raiseTicket) {
    await pool.query(
      `INSERT INTO ticket (id, customer_id, summary, description, priority, created_by)
       VALUES (gen_random_uuid(), 'acme-corp', 'Checkout latency after the last release', 'p95 of the checkout went from 300 ms to 2 s.', 'P2', 'alice@acme.example')`,
    );
    ticket = await first();
  }
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

/**
 * The file name part of a path: '/billing/alerts' → 'billing-alerts', '/' → 'billing'; a ticket's random id becomes
 * 'ticket', so each run replaces the same pictures.
 */
export function shotName(path: string): string {
  if (path === '/') return 'billing';
  return path.slice(1).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i, 'ticket').replace(/[^a-z0-9]+/gi, '-').slice(0, 60);
}
