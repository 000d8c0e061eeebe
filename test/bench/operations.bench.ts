/**
 * The provider's console under autocannon beside a bare Fastify JSON route measured in the same run: the operations
 * inbox (first page, and filtered by a kind) and the all-customers spend overview with BENCH_CUSTOMERS generated
 * customers (default 500), each with two billing accounts, 60 days of daily spend in its own currency, a nightly
 * ingest batch a day (some failed), project requests, license orders, tickets, anomalies, alerts over quota and
 * inventory runs, so every kind of the inbox has items. Held to: inbox p99 ≤ 50 ms.
 * Alone: `npx tsx test/bench/operations.bench.ts` (BENCH_SECONDS, BENCH_CUSTOMERS).
 * Runs under Node's own header limit: the admin's token names the user and session only (api/src/plugins/app/auth.ts),
 * whatever the number of customers.
 */
import Fastify from 'fastify';
import autocannon from 'autocannon';
import { buildApp } from '../../api/src/app.ts';
import { DEMO_PASSWORD } from '../../infra/scripts/seed.ts';
import { addDays, billingToday } from '@cc/shared/time.ts';
import { benchContext, fmt, type BenchContext } from './context.ts';

/** Customer ids must be letters and hyphens: the number's digits as letters. */
const ID = `'bench-' || translate(lpad(i::text, 5, '0'), '0123456789', 'abcdefghij')`;

export async function generateCustomers(ctx: BenchContext, customers: number): Promise<number> {
  const t0 = performance.now();
  const today = billingToday();
  const q = (sql: string, params: unknown[] = []) => ctx.pool.query(sql, params);
  await q(
    `INSERT INTO customer (customer_id, customer_name, billing_account_ids, billing_currency, workspace_license, domain_name)
     SELECT ${ID}, 'Bench customer ' || i, ARRAY['BENCH-' || i || '-A', 'BENCH-' || i || '-B'], (ARRAY['EUR', 'USD', 'GBP', 'DKK'])[1 + i % 4], true,
            'bench' || i || '.example'
       FROM generate_series(1, $1) AS i`,
    [customers],
  );
  // 60 days × 2 accounts × 5 projects × 2 services, in the customer's currency
  await q(
    `INSERT INTO cost_daily (customer_id, billing_account_id, usage_date, provider, provider_name, project_id, project_name, service, cost, credits, currency)
     SELECT c.customer_id, a.id, $1::date - d, 'gcp', 'Google Cloud', 'p' || p, 'Project ' || p, s, (10 + (d * 7 + p * 13) % 90)::numeric + 0.25, 0, c.billing_currency
       FROM customer c CROSS JOIN LATERAL unnest(c.billing_account_ids) AS a(id), generate_series(1, 60) AS d, generate_series(1, 5) AS p,
            unnest(ARRAY['Compute Engine', 'BigQuery']) AS s
      WHERE c.customer_id LIKE 'bench-%'
        -- one account in 20 stopped delivering 5 days ago (stale)
        AND NOT (d < 5 AND a.id LIKE '%0-B')`,
    [today],
  );
  await q(
    `INSERT INTO fx_rate (currency, rate_date, rate, source)
     SELECT cur, $1::date - d, 1 + (d % 7) / 100.0 * (CASE cur WHEN 'DKK' THEN 7 ELSE 1 END), 'ecb'
       FROM generate_series(0, 75) AS d, unnest(ARRAY['USD', 'GBP', 'DKK']) AS cur`,
    [today],
  );
  // a nightly batch a day per account; the latest failed on one account in 25
  await q(
    `INSERT INTO ingest_batch (customer_id, billing_account_id, source, status, started_at, finished_at, error)
     SELECT c.customer_id, a.id, 'bigquery', CASE WHEN d = 0 AND n % 25 = 0 THEN 'failed' ELSE 'succeeded' END, now() - d * interval '1 day', now() - d * interval '1 day',
            CASE WHEN d = 0 AND n % 25 = 0 THEN '{"message":"BigQuery refused"}'::jsonb END
       FROM (SELECT customer_id, billing_account_ids, row_number() OVER (ORDER BY customer_id) AS n FROM customer WHERE customer_id LIKE 'bench-%') c
      CROSS JOIN LATERAL unnest(c.billing_account_ids) AS a(id), generate_series(0, 59) AS d`,
  );
  await q(
    `INSERT INTO project_request (customer_id, requester, bu, product, env, owner_value, template_name, folder_name, folder_number,
                                  project_type, project_template, project_name, state, failed_step, error)
     SELECT c.customer_id, 'alice@acme.example', 'retail', 'webshop', 'dev', 'alice', 'T', 'analytics', '123', 'analytics', '{}',
            c.customer_id || '-' || k, s.state, CASE WHEN s.state = 'Failed' THEN 'link_billing' END, CASE WHEN s.state = 'Failed' THEN 'no billing account' END
       FROM customer c, generate_series(1, 6) AS k, LATERAL (SELECT (ARRAY['Pending approval', 'Active', 'Failed', 'Rejected', 'Active', 'Active'])[k] AS state) s
      WHERE c.customer_id LIKE 'bench-%'`,
  );
  await q(
    `INSERT INTO license (customer_id, sku_id, sku_name, volume_total, volume_available, threshold, new_order)
     SELECT customer_id, '1010020028', 'Google Workspace Business Standard', 50, 8, 5, 1 FROM customer WHERE customer_id LIKE 'bench-%'`,
  );
  await q(
    `INSERT INTO license_order (customer_id, sku_id, sku_name, order_amount, order_by, status, error)
     SELECT customer_id, '1010020028', 'Google Workspace Business Standard', 1 + k, 'alice@acme.example', s, CASE WHEN s = 'Failed' THEN 'Google refused' END
       FROM customer, generate_series(1, 4) AS k, LATERAL (SELECT (ARRAY['Pending', 'Fulfilled', 'Failed', 'Rejected'])[k] AS s) x
      WHERE customer_id LIKE 'bench-%'`,
  );
  await q(
    `INSERT INTO ticket (id, customer_id, summary, description, priority, status, created_at, created_by, first_response_at, sync_state)
     SELECT gen_random_uuid(), customer_id, 'Ticket ' || k, 'x', 'P' || (1 + k % 4), CASE WHEN k % 3 = 0 THEN 'Closed' ELSE 'Open' END,
            now() - k * interval '7 hours', 'alice@acme.example', CASE WHEN k % 2 = 0 THEN now() END, CASE WHEN k = 7 THEN 'failed' ELSE 'synced' END
       FROM customer, generate_series(1, 12) AS k WHERE customer_id LIKE 'bench-%'`,
  );
  await q(
    `INSERT INTO anomaly_run (customer_id, billing_account_id, date, computed_at, window_days, min_history_days, judged_series, cold_start_series)
     SELECT customer_id, billing_account_ids[1], $1::date - d, now() - d * interval '1 day', 28, 7, 10, 0
       FROM customer, generate_series(2, 31) AS d WHERE customer_id LIKE 'bench-%'`,
    [today],
  );
  await q(
    `INSERT INTO anomaly (customer_id, billing_account_id, date, project_id, service, currency, mean_cost, to_date_cost, project_mean_cost, project_to_date_cost, flagged)
     SELECT r.customer_id, r.billing_account_id, r.date, 'p1', 'BigQuery', 'EUR', 10, 50, 10, 50, true
       FROM anomaly_run r WHERE r.customer_id LIKE 'bench-%' AND (r.date - $1::date) % 5 = 0`,
    [today],
  );
  await q(`INSERT INTO alert (customer_id, group_by, quota) SELECT customer_id, 'service', 100 FROM customer WHERE customer_id LIKE 'bench-%'`);
  await q(
    `INSERT INTO alert_notice (alert_id, customer_id, month, billing_account_id, spend, quota, currency, evaluated_day)
     SELECT a.id, a.customer_id, m, 'A', 150, 100, 'EUR', $1::date
       FROM alert a, unnest(ARRAY[to_char($1::date, 'YYYY-MM'), to_char($2::date, 'YYYY-MM')]) AS m WHERE a.customer_id LIKE 'bench-%' AND a.id % 3 = 0`,
    [today, addDays(today, -40)],
  );
  await q(
    `INSERT INTO inventory_sync_run (customer_id, source, status, finished_at, error)
     SELECT customer_id, 'local', s, now(), CASE WHEN s = 'failed' THEN 'permission denied' END
       FROM customer, unnest(ARRAY['succeeded', 'failed']) WITH ORDINALITY AS x(s, k) WHERE customer_id LIKE 'bench-%'`,
  );
  await q('ANALYZE');
  return performance.now() - t0;
}

interface Line {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export async function operationsBench(ctx: BenchContext): Promise<void> {
  const customers = Number(process.env.BENCH_CUSTOMERS ?? 500);
  const loaded = await generateCustomers(ctx, customers);
  const app = await buildApp(ctx.config, { logger: false });
  const bare = Fastify({ logger: false });
  bare.get('/bare', async () => ({ hello: 'world' }));
  try {
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const bareBase = await bare.listen({ port: 0, host: '127.0.0.1' });
    const login = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: 'admin@commandcenter.local', password: DEMO_PASSWORD } });
    const headers = { authorization: `Bearer ${login.json().token}` };
    const routes: [string, string][] = [
      // what any admin request costs before its handler (token, session, stored claims), plus the claims' first customers
      ['admin’s /v1/auth/me', '/v1/auth/me'],
      // the header's customer picker past the claims' first 25 customers
      ['customer picker search', '/v1/auth/me/customers?q=customer%2042'],
      ['operations inbox, first page', '/v1/operations/inbox?offset=0&limit=50'],
      ['operations inbox, one kind', '/v1/operations/inbox?kind=ticket_first_response_overdue&offset=0&limit=50'],
      ['all customers’ spend', '/v1/operations/spend'],
    ];
    const sizes: string[] = [];
    for (const [label, path] of routes) {
      const t0 = performance.now();
      const res = await fetch(`${base}${path}`, { headers });
      console.log(`${label}: one request ${fmt(performance.now() - t0)} ms`);
      const text = await res.text();
      const body = JSON.parse(text) as { total?: number; rows?: unknown[]; claims?: unknown };
      if (res.status !== 200) throw new Error(`${label}: ${path} answered ${res.status} ${JSON.stringify(body)}`);
      sizes.push(body.rows ? `${fmt(body.rows.length)} customers` : body.total !== undefined ? `${fmt(body.total)} items, ${fmt(text.length)} bytes` : `${fmt(text.length)} bytes`);
    }
    const lines: Line[] = [];
    const run = async (label: string, url: string, h?: Record<string, string>) => {
      const r = await autocannon({ url, headers: h, connections: 10, duration: ctx.seconds });
      lines.push({ label, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors });
    };
    await run('bare Fastify JSON route', `${bareBase}/bare`);
    for (const [label, path] of routes) await run(label, `${base}${path}`, headers);

    console.log(`generated ${fmt(customers)} customers (2 accounts, 60 days each) in ${fmt(loaded / 1000, 1)} s`);
    console.log(`autocannon 10 connections, ${ctx.seconds} s each; the inbox is held to p99 ≤ 50 ms; token ${fmt(headers.authorization.length)} bytes`);
    lines.forEach((l, i) => {
      const size = i === 0 ? '' : `  [${sizes[i - 1]}]`;
      console.log(`${l.label.padEnd(32)} ${fmt(l.rps).padStart(7)} req/s  p50 ${l.p50} ms  p99 ${l.p99} ms  non2xx ${l.non2xx}  errors ${l.errors}${size}`);
    });
  } finally {
    await app.close();
    await bare.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const ctx = await benchContext();
  try {
    await operationsBench(ctx);
  } finally {
    await ctx.close();
  }
}
