/**
 * The lists in docs/ARCHITECTURE.md and workers/README.md that the code can tell: queues, worker jobs, wire schema
 * files, tables, web features and api routes. Each is written between `<!-- generated:NAME -->` and
 * `<!-- /generated:NAME -->`, so a queue, table, schema file, feature or route added without the map makes
 * test/integration/docs.test.ts fail. The routes come from the api's route registry: the api is built, never started,
 * with the configured settings (it builds even when PostgreSQL and Redis are down, logging Redis' refusals).
 *   npx tsx infra/scripts/docs-map.ts          prints the sections
 *   npx tsx infra/scripts/docs-map.ts --write  rewrites them in place (`make docs-config`)
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import type { TSchema } from '@sinclair/typebox';
import { loadConfig, readEnvironment } from '@cc/shared/config.ts';
import { QUEUES, SCHEDULES, SCHEDULE_TIME_ZONE, type QueueName } from '@cc/shared/queues.ts';
import { buildApp } from '../../api/src/app.ts';
import { migrationTables, queueDocs, schemaFiles, webFeatures, workerJobs } from './docs-map-sources.ts';

/** A route as the api's route registry records it. */
export type MapRoute = { method: string; url: string; permission: string; tenant: unknown };

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (s: string) => `\`${s}\``;
const table = (head: string[], rows: string[][]) =>
  [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');

/** A payload schema in one line: `{a, b?, kind: x | y}` (optional fields end in `?`, literal unions show their values). */
export function payloadShape(schema: TSchema): string {
  const props = (schema.properties ?? {}) as Record<string, TSchema>;
  const required = new Set<string>(schema.required ?? []);
  const literals = (s: TSchema): string[] | null =>
    s.const !== undefined ? [String(s.const)] : Array.isArray(s.anyOf) && s.anyOf.every((v: TSchema) => v.const !== undefined) ? s.anyOf.map((v: TSchema) => String(v.const)) : null;
  const fields = Object.entries(props).map(([name, s]) => {
    const values = literals(s);
    return `${name}${required.has(name) ? '' : '?'}${values ? `: ${values.join(' | ')}` : ''}`;
  });
  return `{${fields.join(', ')}}`;
}

/** A cron pattern in words where it is a daily time or a step in minutes, else as written. */
export function when(pattern: string): string {
  const daily = /^(\d+) (\d+) \* \* \*$/.exec(pattern);
  if (daily) return `daily ${daily[2].padStart(2, '0')}:${daily[1].padStart(2, '0')}`;
  const every = /^\*\/(\d+) \* \* \* \*$/.exec(pattern);
  return every ? `every ${every[1]} min` : pattern;
}

export function queuesSection(): string {
  const docs = queueDocs();
  const rows = (Object.keys(QUEUES) as QueueName[]).map((q) => {
    const schedules = SCHEDULES.filter((s) => s.queue === q).map((s) => when(s.pattern));
    if (!docs[q]) throw new Error(`shared/src/queues.ts: the QUEUES entry '${q}' has no /** … */ comment saying what it does`);
    return [code(q), code(QUEUES[q].job), cell(code(payloadShape(QUEUES[q].payload))), schedules.join(', ') || '—', cell(docs[q])];
  });
  return table(['queue', 'job', 'payload', `schedule (${SCHEDULE_TIME_ZONE})`, 'what it does (from the registry)'], rows);
}

export function jobsSection(): string {
  const jobs = workerJobs();
  const rows = (Object.keys(QUEUES) as QueueName[]).map((q) => {
    const job = jobs[q];
    if (!job) throw new Error(`workers/src/handlers.ts has no factory for queue '${q}'`);
    const local = (p: string) => code(p.replace(/^workers\//, ''));
    return [`${code(q)} (${code(QUEUES[q].job)})`, local(job.handler), job.deps.map(code).join(', '), job.imports.map(local).join(', ') || '—'];
  });
  return table(['queue (job name)', 'handler', 'deps (`JOB_DEPS`)', 'imports'], rows);
}

export function schemasSection(): string {
  const rows = schemaFiles().map(({ file, importers }) => [code(`shared/src/schemas/${file}`), importers.map((i) => code(`${i}/`)).join(', ') || '—']);
  return table(['wire schema file', 'imported by'], rows);
}

export function tablesSection(): string {
  return table(
    ['migration', 'tables it created'],
    migrationTables().map(({ migration, tables }) => [code(migration), tables.map(code).join(', ')]),
  );
}

export function featuresSection(): string {
  const rows = webFeatures().map(({ feature, pages }) => [
    code(`web/src/features/${feature}/`),
    pages.map((p) => `${code(p.path)} ${cell(p.title)}`).join(', ') || '— (used by other pages)',
  ]);
  return table(['feature folder', 'pages (`web/src/app/routes.ts`)'], rows);
}

function tenantText(tenant: unknown): string {
  if (tenant === 'none' || !tenant || typeof tenant !== 'object') return '—';
  const [kind, value] = Object.entries(tenant)[0] as [string, unknown];
  if (kind === 'resolve') return 'its resource';
  const where = { params: 'path', query: 'query', body: 'body', domain: 'domain in path' }[kind] ?? kind;
  return `${where} ${code(String(value))}`;
}

/** The spec's routes (`/v1/…`, `/v2/…`) grouped by their area, the path segment after the version. */
export function routesSection(routes: MapRoute[]): string {
  const area = (url: string) => url.split('/')[2];
  const spec = routes.filter((r) => /^\/v\d+\//.test(r.url));
  const areas = [...new Set(spec.map((r) => area(r.url)))];
  const rows = areas.flatMap((a) =>
    spec.filter((r) => area(r.url) === a).map((r, i) => [i === 0 ? code(a) : '', r.method, code(r.url), code(r.permission), tenantText(r.tenant)]),
  );
  return table(['area', 'method', 'path', 'permission', 'customer named by'], rows);
}

/** The routes the api registers, from a built api that never listens (fresh secrets, so none is read or written). */
export async function apiRoutes(): Promise<MapRoute[]> {
  const secret = () => randomBytes(32).toString('base64url');
  const config = loadConfig({ ...readEnvironment(), LOG_LEVEL: 'silent', JWT_SECRET: secret(), SECRETS_KEY: secret() });
  const app = await buildApp(config, { logger: false });
  try {
    await app.ready();
    return app.registeredRoutes.map(({ method, url, permission, tenant }) => ({ method, url, permission, tenant }));
  } finally {
    await app.close();
  }
}

/** Every generated section, by file and name. */
export function sections(routes: MapRoute[]): Record<string, Record<string, string>> {
  return {
    'docs/ARCHITECTURE.md': {
      queues: queuesSection(),
      tables: tablesSection(),
      schemas: schemasSection(),
      routes: routesSection(routes),
      features: featuresSection(),
    },
    'workers/README.md': { jobs: jobsSection() },
  };
}

/** What a text holds between the markers of section `name` (null when it has none). */
export function sectionOf(text: string, name: string): string | null {
  const m = new RegExp(`<!-- generated:${name} -->\\n([\\s\\S]*?)\\n?<!-- /generated:${name} -->`).exec(text);
  return m ? m[1] : null;
}

/** The text with each named section's content replaced; a section whose markers are missing is an error. */
export function withSections(text: string, generated: Record<string, string>, file = 'the file'): string {
  let out = text;
  for (const [name, body] of Object.entries(generated)) {
    const open = `<!-- generated:${name} -->`;
    const close = `<!-- /generated:${name} -->`;
    const start = out.indexOf(open);
    const end = out.indexOf(close);
    if (start < 0 || end < start) throw new Error(`${file} has no '${open}' … '${close}' section`);
    out = `${out.slice(0, start + open.length)}\n${body}\n${out.slice(end)}`;
  }
  return out;
}

if (process.argv[1]?.endsWith('docs-map.ts')) {
  const all = Object.entries(sections(await apiRoutes()));
  if (process.argv.includes('--write')) {
    // Every file's markers are checked before any file is written.
    const texts = all.map(([file, generated]) => [file, withSections(readFileSync(file, 'utf8'), generated, file)]);
    for (const [file, text] of texts) writeFileSync(file, text);
    console.log(`regenerated: ${all.map(([file, generated]) => `${file} (${Object.keys(generated).join(', ')})`).join(', ')}`);
  } else {
    for (const [file, generated] of all) for (const [name, body] of Object.entries(generated)) console.log(`<!-- ${file}: ${name} -->\n${body}\n`);
  }
}
