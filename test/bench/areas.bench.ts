/**
 * The newer areas' read routes under autocannon, each beside a bare Fastify JSON route measured in the same run
 * (each against the figure it is held to): the inventory asset list at BENCH_ASSETS assets (default 100,000) — first
 * page and a searched, re-sorted page deep in the list —, the recommendation list, the inventory graph of a
 * BENCH_GRAPH_NODES-node estate (default 5,000) plain and gzipped, the license list (BENCH_LICENSES, default 50) and the project
 * provisioning list (BENCH_PROJECTS requests, default 500), the license orders and history (BENCH_ORDERS orders, default
 * 500) and the ticket list (BENCH_TICKETS tickets, default 500): every list has rows to answer, not an empty one.
 * The estates come from the local inventory's generator (deterministic, realistic shapes), cut to the size asked.
 */
import Fastify from 'fastify';
import autocannon from 'autocannon';
import { replaceSnapshot, startSyncRun } from '@cc/shared/db/inventory/snapshot.ts';
import { asActor, insertLicense } from '@cc/shared/db/licenses/licenses.ts';
import { withTransaction } from '@cc/shared/db/pool.ts';
import { buildApp } from '../../api/src/app.ts';
import { DEMO_PASSWORD } from '../../infra/scripts/seed.ts';
import { localEstate } from '@cc/shared/adapters/inventory/local-estate.ts';
import { fmt, type BenchContext } from './context.ts';

interface Line {
  label: string;
  rps: number;
  mean: number;
  p50: number;
  p99: number;
  non2xx: number;
}

/** An estate of the local generator with at least `assets` assets, cut to exactly that many. */
function estate(customerId: string, assets: number) {
  const projects = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ project_id: `${customerId}-p${String(i).padStart(5, '0')}`, project_name: `Bench project ${i}` }));
  const probe = localEstate(customerId, projects(20), 'EUR').assets.length / 20;
  // Projects differ in size: grow the project count until the estate is big enough, then cut it.
  for (let n = Math.ceil((assets * 1.2) / probe) + 1; ; n = Math.ceil(n * 1.5)) {
    const e = localEstate(customerId, projects(n), 'EUR');
    if (e.assets.length >= assets) return { assets: e.assets.slice(0, assets), recommendations: e.recommendations };
  }
}

async function load(ctx: BenchContext, customerId: string, assets: number): Promise<number> {
  const t0 = performance.now();
  const snapshot = estate(customerId, assets);
  await replaceSnapshot(ctx.pool, customerId, await startSyncRun(ctx.pool, customerId, 'local'), snapshot);
  return performance.now() - t0;
}

export async function areasBench(ctx: BenchContext): Promise<void> {
  const assets = Number(process.env.BENCH_ASSETS ?? 100_000);
  const graphNodes = Number(process.env.BENCH_GRAPH_NODES ?? 5_000);
  const largeGraph = Number(process.env.BENCH_GRAPH_LARGE ?? 50_000);
  const projects = Number(process.env.BENCH_PROJECTS ?? 500);
  const licenses = Number(process.env.BENCH_LICENSES ?? 50);
  const orders = Number(process.env.BENCH_ORDERS ?? 500);
  const tickets = Number(process.env.BENCH_TICKETS ?? 500);
  const { pool } = ctx;

  // acme-corp holds the big asset list; globex (inventory switched on) the graph's estate.
  await pool.query(`UPDATE customer SET inventory = true WHERE customer_id IN ('globex', 'initech')`);
  const listLoad = await load(ctx, 'acme-corp', assets);
  const graphLoad = await load(ctx, 'globex', graphNodes);
  // initech holds the large graph's estate, read by the provider's admin
  const largeLoad = largeGraph > 0 ? await load(ctx, 'initech', largeGraph) : 0;
  await pool.query(
    `INSERT INTO project_request (customer_id, requester, bu, product, env, owner_value, template_name, folder_name, folder_number,
                                  project_type, project_template, project_name, state, failed_step, error)
     SELECT 'acme-corp', 'alice@acme.example', 'retail', 'webshop', 'dev', 'alice', 'Standard analytics project', 'analytics', '123',
            'analytics', (SELECT project_provisioning -> 0 -> 'project_template' FROM customer WHERE customer_id = 'acme-corp'),
            'bench-project-' || lpad(i::text, 5, '0'), s.state,
            CASE WHEN s.state = 'Failed' THEN 'link_billing' END, CASE WHEN s.state = 'Failed' THEN 'Customer has no billing account' END
       FROM generate_series(1, $1) AS i, LATERAL (SELECT (ARRAY['Pending approval', 'Active', 'Failed', 'Rejected'])[1 + i % 4] AS state) s`,
    [projects],
  );
  // Workspace SKUs a big customer watches (the local tenant has a handful; the list has no paging).
  await withTransaction(pool, async (tx) => {
    await asActor(tx, 'bench');
    for (let i = 0; i < licenses; i++) {
      await insertLicense(tx, { customer_id: 'acme-corp', sku_id: String(1010020000 + i), sku_name: `Bench SKU ${i}`, volume_total: 100 + i, volume_available: i % 20, threshold: 10, new_order: 5, auto_order: i % 2 === 0 });
    }
  });
  // Orders over the last weeks, in every state a person's order takes, and the customer's tickets.
  await pool.query(
    `INSERT INTO license_order (customer_id, sku_id, sku_name, order_amount, order_by, comment, status, order_time, decided_by, decided_at)
     SELECT 'acme-corp', (1010020000 + i % $2)::text, 'Bench SKU ' || (i % $2), 1 + i % 5, 'alice@acme.example', 'bench order ' || i, s.status,
            now() - i * interval '1 hour', CASE WHEN s.status <> 'Pending' THEN 'admin@commandcenter.local' END,
            CASE WHEN s.status <> 'Pending' THEN now() - i * interval '1 hour' + interval '10 minutes' END
       FROM generate_series(1, $1) AS i, LATERAL (SELECT (ARRAY['Pending', 'Approved', 'Fulfilled', 'Rejected'])[1 + i % 4] AS status) s`,
    [licenses > 0 ? orders : 0, Math.max(licenses, 1)],
  );
  await pool.query(
    `INSERT INTO ticket (id, customer_id, summary, description, priority, status, created_by, created_at, updated_at)
     SELECT gen_random_uuid(), 'acme-corp', 'Bench ticket ' || i, 'What the customer wrote about bench ticket ' || i, 'P' || (1 + i % 4),
            (ARRAY['Open', 'In Progress', 'Resolved', 'Closed'])[1 + i % 4], 'alice@acme.example', now() - i * interval '1 hour', now() - i * interval '30 minutes'
       FROM generate_series(1, $1) AS i`,
    [tickets],
  );
  await pool.query('ANALYZE');

  const app = await buildApp(ctx.config, { logger: false });
  const bare = Fastify({ logger: false });
  bare.get('/bare', async () => ({ hello: 'world' }));
  try {
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const bareBase = await bare.listen({ port: 0, host: '127.0.0.1' });
    const login = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: 'alice@acme.example', password: DEMO_PASSWORD } });
    const headers = { authorization: `Bearer ${login.json().token}` };
    const adminLogin = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email: 'admin@commandcenter.local', password: DEMO_PASSWORD } });
    const admin = { authorization: `Bearer ${adminLogin.json().token}` };

    // [label, path, extra request headers]
    const routes: [string, string, Record<string, string>?][] = [
      [`asset list, first page (of ${fmt(assets)})`, '/v1/asset-inventory/acme-corp/assets?offset=0&limit=100'],
      ['asset list, searched + sorted, deep page', `/v1/asset-inventory/acme-corp/assets?search=instance&sort=project_id&offset=${Math.floor(assets / 20)}&limit=100`],
      ['recommendation list, first page', '/v1/asset-inventory/acme-corp/recommendations?offset=0&limit=100'],
      [`inventory graph (${fmt(graphNodes)} assets)`, '/v1/asset-inventory/globex/visualize/'],
      // A browser asks with Accept-Encoding: the graph is kept gzipped too (api/src/inventory/graph-cache.ts).
      [`inventory graph, gzip (${fmt(graphNodes)} assets)`, '/v1/asset-inventory/globex/visualize/', { 'accept-encoding': 'gzip' }],
      ...(largeGraph > 0
        ? [[`inventory graph, gzip (${fmt(largeGraph)} assets)`, '/v1/asset-inventory/initech/visualize/', { ...admin, 'accept-encoding': 'gzip' }] as [string, string, Record<string, string>]]
        : []),
      [`license list (${fmt(licenses)} licenses)`, '/v1/licenses/acme.example'],
      [`provisioning list, first page (of ${fmt(projects)})`, '/v1/projectprovisioning/acme-corp/?offset=0&limit=100'],
      // paged on the server like the provisioning list: the screens ask for pages of 10 to 100
      ['license orders history, first page of 100', '/v1/licenses/orders/history/acme-corp?offset=0&limit=100'],
      ['license history with orders, first page of 100', '/v1/licenses/history/acme.example/true?offset=0&limit=100'],
      ['license orders history, deep page of 100 (offset 400)', '/v1/licenses/orders/history/acme-corp?offset=400&limit=100'],
      ['ticket list, first page', '/v1/jira/msp_tickets/acme-corp/list?offset=0&limit=50'],
      ['user list, first page (admin)', '/v1/users/?page=0&page_size=100', admin],
      ['customer list (admin)', '/v1/customers/', admin],
    ];
    // What each answer holds, so a reader sees the size of what was measured (and a broken route shows at once).
    const sizes: string[] = [];
    for (const [label, path, extra] of routes) {
      const res = await fetch(`${base}${path}`, { headers: { ...headers, ...extra } });
      const text = await res.text();
      const body = JSON.parse(text) as { total?: number; nodes?: unknown[]; links?: unknown[] } | unknown[];
      if (res.status !== 200) throw new Error(`${label}: ${path} answered ${res.status} ${JSON.stringify(body)}`);
      sizes.push(
        (Array.isArray(body) ? `${fmt(body.length)} rows` : body.nodes ? `${fmt(body.nodes.length)} nodes, ${fmt(body.links?.length ?? 0)} links` : `total ${fmt(body.total ?? 0)}`) +
          `, ${fmt(Buffer.byteLength(text) / 1024, 1)} KB`,
      );
    }

    const duration = ctx.seconds;
    const lines: Line[] = [];
    const run = async (label: string, url: string, h?: Record<string, string>) => {
      const r = await autocannon({ url, headers: h, connections: 10, duration });
      lines.push({ label, rps: r.requests.average, mean: r.latency.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx });
    };
    await run('bare Fastify JSON route', `${bareBase}/bare`);
    for (const [label, path, extra] of routes) await run(label, `${base}${path}`, { ...headers, ...extra });
    // Again at the end: on a shared machine the load changes over a run, and each route is read against both.
    await run('bare Fastify JSON route (again, after)', `${bareBase}/bare`);

    console.log(
      `loaded ${fmt(assets)} assets in ${fmt(listLoad / 1000, 1)} s, the ${fmt(graphNodes)}-asset graph estate in ${fmt(graphLoad / 1000, 1)} s, the ${fmt(largeGraph)}-asset one in ${fmt(largeLoad / 1000, 1)} s`,
    );
    console.log(`autocannon 10 connections, ${duration} s each; ratio = bare req/s ÷ route req/s`);
    const bareLine = lines[0]!;
    lines.forEach((l, i) => {
      const bareRun = i === 0 || i === lines.length - 1;
      const size = bareRun ? '' : `  [${sizes[i - 1]}]`;
      const ratio = bareRun ? '' : `  ${fmt(bareLine.rps / Math.max(l.rps, 1), 1)}× lower`;
      console.log(
        `${l.label.padEnd(46)} ${fmt(l.rps).padStart(7)} req/s  p50 ${l.p50} ms  p99 ${l.p99} ms  mean ${fmt(l.mean, 2)} ms  non2xx ${l.non2xx}${ratio}${size}`,
      );
    });
  } finally {
    await app.close();
    await bare.close();
  }
}
