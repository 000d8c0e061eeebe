/**
 * Demo data for `make start` (idempotent: safe to run on every start).
 * Usage: tsx infra/scripts/seed.ts   (DATABASE_URL from the environment or its default)
 */
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@cc/shared/config.ts';
import { createPool, withTransaction, type Queryable } from '@cc/shared/db/pool.ts';
import { refreshClaims, upsertUser } from '@cc/shared/db/users.ts';
import type { Role } from '@cc/shared/permissions.ts';
import { hashPassword } from '@cc/shared/auth/passwords.ts';
import { seedPlaybooks } from './seed-playbooks.ts';

export const DEMO_PASSWORD = 'commandcenter';

/** One sign-in per role, printed by `make start` and used by the E2E tests. */
export const DEMO_USERS: { email: string; role: Role; note: string }[] = [
  { email: 'admin@commandcenter.local', role: 'admin', note: 'provider admin, every customer' },
  { email: 'alice@acme.example', role: 'customer', note: 'Acme Corp and Globex' },
  { email: 'victor@acme.example', role: 'customerViewer', note: 'Acme Corp, project label team=analytics' },
];

const ENTITIES = [
  { id: 'nordic-group', name: 'Nordic Group', email_domain_allowed: 'acme.example\nglobex.example' },
  { id: 'solo-ventures', name: 'Solo Ventures', email_domain_allowed: 'initech.example' },
];

const TEMPLATE = {
  template_name: 'Standard analytics project',
  folder_name: 'analytics',
  folder_number: '123456789012',
  project_template: {
    project_type: 'analytics',
    default_admin: 'alice@acme.example',
    budget: 1000,
    owner_label: 'cost-owner',
    project_name: 'acme-{bu}-{product}-{env}',
    quota: { bigquery_analysis: 10, compute_engine_cpus: 24 },
  },
};

const CUSTOMERS = [
  {
    customer_id: 'acme-corp',
    customer_name: 'Acme Corp',
    entity: 'nordic-group',
    billing_account_ids: ['01A2B3-C4D5E6-F7A8B9', '01FFEE-DDCCBB-AA9988'],
    billing_currency: 'EUR',
    billing_dashboard_type: 'Tier Discount',
    billing_dashboard_set_discount: null,
    billing_dashboard_tier_discount: [
      { threshold_spend: 10000, percentage: 2 },
      { threshold_spend: 50000, percentage: 4 },
    ],
    flags: { support_request: true, billing_viewer: true, gcp_service_account: true, inventory: true, system_health_dashboard: true, documentation: true, workspace_license: true, anomaly_detection: true },
    service_account_email: 'commandcenter@acme-corp-ops.iam.gserviceaccount.com',
    domain_name: 'acme.example',
    drive_id: '1AcmePlaybookFolderId',
    business_units: ['retail', 'finance'],
    products: ['webshop', 'ledger'],
    env: ['dev', 'prod'],
    owner_values: ['alice', 'finance-team'],
    project_provisioning: [TEMPLATE],
  },
  {
    customer_id: 'globex',
    customer_name: 'Globex Corporation',
    entity: 'nordic-group',
    billing_account_ids: ['02B3C4-D5E6F7-A8B9C0'],
    billing_currency: 'USD',
    billing_dashboard_type: 'Set Discount',
    billing_dashboard_set_discount: 5,
    billing_dashboard_tier_discount: [],
    flags: { support_request: true, billing_viewer: false, gcp_service_account: false, inventory: false, system_health_dashboard: false, documentation: true, workspace_license: false, anomaly_detection: false },
    service_account_email: '',
    domain_name: '',
    drive_id: '',
    business_units: [],
    products: [],
    env: [],
    owner_values: [],
    project_provisioning: [],
  },
  {
    customer_id: 'initech',
    customer_name: 'Initech',
    entity: 'solo-ventures',
    billing_account_ids: [],
    billing_currency: 'GBP',
    billing_dashboard_type: 'Standard',
    billing_dashboard_set_discount: null,
    billing_dashboard_tier_discount: [],
    flags: { support_request: true, billing_viewer: false, gcp_service_account: false, inventory: false, system_health_dashboard: false, documentation: false, workspace_license: false, anomaly_detection: false },
    service_account_email: '',
    domain_name: '',
    drive_id: '',
    business_units: [],
    products: [],
    env: [],
    owner_values: [],
    project_provisioning: [],
  },
];

const EXTRA_USERS: { email: string; role: Role; verified: boolean }[] = [
  { email: 'bob@initech.example', role: 'customer', verified: true },
  { email: 'pending@acme.example', role: 'customer', verified: false },
];

/** customer → list → users */
const MEMBERS: [string, 'users' | 'notify' | 'alert', string][] = [
  ['acme-corp', 'users', 'alice@acme.example'],
  ['acme-corp', 'users', 'victor@acme.example'],
  ['acme-corp', 'users', 'pending@acme.example'],
  ['acme-corp', 'notify', 'alice@acme.example'],
  ['acme-corp', 'alert', 'alice@acme.example'],
  ['globex', 'users', 'alice@acme.example'],
  ['globex', 'notify', 'alice@acme.example'],
  ['initech', 'users', 'bob@initech.example'],
  ['initech', 'notify', 'bob@initech.example'],
];

export async function seed(db: Queryable): Promise<void> {
  for (const e of ENTITIES) {
    await db.query(
      `INSERT INTO entity (id, name, email_domain_allowed) VALUES ($1, $2, $3)
       ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, email_domain_allowed = EXCLUDED.email_domain_allowed`,
      [e.id, e.name, e.email_domain_allowed],
    );
  }
  for (const c of CUSTOMERS) {
    await db.query(
      `INSERT INTO customer (customer_id, customer_name, entity, billing_account_ids, billing_currency, billing_dashboard_type,
         billing_dashboard_set_discount, billing_dashboard_tier_discount, support_request, billing_viewer, gcp_service_account,
         service_account_email, inventory, system_health_dashboard, documentation, drive_id, workspace_license, domain_name,
         anomaly_detection, business_units, products, env, owner_values, project_provisioning)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24)
       ON CONFLICT (customer_id) DO NOTHING`,
      [
        c.customer_id, c.customer_name, c.entity, c.billing_account_ids, c.billing_currency, c.billing_dashboard_type,
        c.billing_dashboard_set_discount, JSON.stringify(c.billing_dashboard_tier_discount), c.flags.support_request,
        c.flags.billing_viewer, c.flags.gcp_service_account, c.service_account_email, c.flags.inventory,
        c.flags.system_health_dashboard, c.flags.documentation, c.drive_id, c.flags.workspace_license, c.domain_name,
        c.flags.anomaly_detection, c.business_units, c.products, c.env, c.owner_values, JSON.stringify(c.project_provisioning),
      ],
    );
  }
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const users = [...DEMO_USERS.map((u) => ({ ...u, verified: true })), ...EXTRA_USERS];
  for (const u of users) await upsertUser(db, { id: u.email, role: u.role, passwordHash, emailVerified: u.verified });
  for (const [customer, list, user] of MEMBERS) {
    await db.query('INSERT INTO customer_member (customer_id, list, user_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [customer, list, user]);
  }
  await db.query(
    `INSERT INTO viewer_filter (customer_id, user_id, label_key, label_value) VALUES ('acme-corp', 'victor@acme.example', 'team', 'analytics')
     ON CONFLICT DO NOTHING`,
  );
  await db.query(`INSERT INTO entity_admin (entity_id, user_id) VALUES ('nordic-group', 'alice@acme.example') ON CONFLICT DO NOTHING`);
  for (const u of users) await refreshClaims(db, u.email);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const config = loadConfig();
  const pool = createPool(config.DATABASE_URL);
  await withTransaction(pool, seed);
  await pool.end();
  if (config.PLAYBOOK === 'local') await seedPlaybooks(config.PLAYBOOK_DIR);
  console.log('seed: demo entities, customers, users and playbook documents are in place');
}
