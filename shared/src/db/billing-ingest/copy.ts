/**
 * COPY text of cost lines and rollup rows: the columns a source row fills (one list the COPY line and the benchmark's
 * raw table derive from), the line of a row, and COPY streams into a connection.
 */
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { from as copyFrom } from 'pg-copy-streams';
import type { PoolClient } from 'pg';
import type { CostRow } from '../../ports/billing-source.ts';

/**
 * The columns a source row fills, in COPY order: name, SQL type, and the row's value as COPY text (null: \N).
 * The one list `toCopyLine`, the benchmark's raw-COPY table and `costLineCopy`'s columns derive from, so they cannot
 * drift apart; a new column a source feeds is added here (and to `costLineCopy`, and the rollups if rolled up).
 */
export const COPY_COLUMNS: readonly (readonly [name: string, type: string, value: (r: CostRow) => string | null])[] = [
  ['provider', 'text NOT NULL', (r) => r.provider],
  ['provider_name', 'text NOT NULL', (r) => r.provider_name],
  ['usage_date', 'date NOT NULL', (r) => r.usage_date],
  ['project_id', 'text NOT NULL', (r) => r.project_id],
  ['project_name', 'text NOT NULL', (r) => r.project_name],
  ['service', 'text NOT NULL', (r) => r.service],
  ['sku', 'text NOT NULL', (r) => r.sku],
  ['cost', 'numeric(24,12) NOT NULL', (r) => r.cost],
  ['credits', 'numeric(24,12) NOT NULL', (r) => r.credits],
  ['currency', 'text NOT NULL', (r) => r.currency],
  ['invoice_month', 'text', (r) => r.invoice_month],
  ['cost_type', 'text', (r) => r.cost_type],
  ['project_labels', 'jsonb NOT NULL', (r) => JSON.stringify(r.project_labels)],
  ['resource_labels', 'jsonb NOT NULL', (r) => JSON.stringify(r.resource_labels)],
  ['resource_id', 'text NOT NULL', (r) => r.resource_id ?? ''],
  ['usage_quantity', 'numeric', (r) => r.usage_quantity ?? null],
  ['correction', 'boolean NOT NULL', (r) => (r.correction ? 't' : 'f')],
  // FOCUS EffectiveCost; null where the source has none (amortised = billed then: RollupSums.add's amortisation)
  ['effective_cost', 'numeric(24,12)', (r) => r.effective_cost ?? null],
];

/** `CREATE ... TABLE <name> (<COPY_COLUMNS>)`; `kind` e.g. 'TEMP' or 'UNLOGGED'. */
export function copyTableDdl(name: string, kind = ''): string {
  return `CREATE ${kind} TABLE ${name} (${COPY_COLUMNS.map(([c, t]) => `${c} ${t}`).join(', ')})`;
}

/** `COPY <name> (<COPY_COLUMNS>) FROM STDIN`. */
export function copyFromStdin(name: string): string {
  return `COPY ${name} (${COPY_COLUMNS.map(([c]) => c).join(', ')}) FROM STDIN`;
}

// The cost_line columns a source row fills: the staging columns but the file-only ones (a correction flag decides a
// file's mode; the amortised figure is stored as `amortisation`, computed by the caller).
const LINE_COLUMNS = COPY_COLUMNS.filter(([name]) => name !== 'correction' && name !== 'effective_cost');

/** What the ingest computed for a row once and shares between its COPY line and its sums. */
export interface LineExtras {
  /** Amortised minus billed (0 without an amortised figure), decimal text. */
  amortisation: string;
  /** The row's label objects as JSON text. */
  project_labels: string;
  resource_labels: string;
}

/** The cost_line columns `costLineCopy` writes, in its lines' order. */
export const COST_LINE_COPY_COLUMNS = ['customer_id', 'billing_account_id', 'source_batch', ...LINE_COLUMNS.map(([c]) => c), 'amortisation'] as const;

/**
 * COPY of a source's rows straight into `cost_line` (no staging): the statement, and each row's
 * line with the batch's constant columns first, the labels as the given JSON text, and the amortisation last. Rows
 * must have passed validateRow: the day, money, currency and invoice month it checked cannot hold a character COPY
 * would need escaped, so only free text is escaped. Written out rather than looped over LINE_COLUMNS, a tenth of the
 * worker's time per row; billing-ingest-copy.test.ts holds it to LINE_COLUMNS' values.
 */
export function costLineCopy(b: { customerId: string; billingAccountId: string; batchId: string }): { sql: string; line: (r: CostRow, x: LineExtras) => string } {
  const prefix = `${copyValue(b.customerId)}\t${copyValue(b.billingAccountId)}\t${b.batchId}`;
  // one per free-text column: rows come in runs that share a value (its provider, project, service, tag set)
  const [provider, providerName, projectId, projectName, service, sku, costType, projectLabels, resourceLabels, resourceId] = Array.from({ length: 10 }, lastEscaped);
  return {
    sql: `COPY cost_line (${COST_LINE_COPY_COLUMNS.join(', ')}) FROM STDIN`,
    line: (r, x) =>
      `${prefix}\t${provider(r.provider)}\t${providerName(r.provider_name)}\t${r.usage_date}\t${projectId(r.project_id)}\t${projectName(r.project_name)}` +
      `\t${service(r.service)}\t${sku(r.sku)}\t${r.cost}\t${r.credits}\t${r.currency}\t${r.invoice_month ?? '\\N'}\t${r.cost_type === null ? '\\N' : costType(r.cost_type)}` +
      `\t${projectLabels(x.project_labels)}\t${resourceLabels(x.resource_labels)}\t${resourceId(r.resource_id ?? '')}\t${r.usage_quantity ?? '\\N'}\t${x.amortisation}\n`,
  };
}

/**
 * escapeCopy that remembers its last value: the same text as the last row's (most often the very same string, which
 * compares at once) is not searched for characters to escape again.
 */
function lastEscaped(): (v: string) => string {
  let last = '';
  let out = '';
  return (v) => {
    if (v !== last) {
      last = v;
      out = escapeCopy(v);
    }
    return out;
  };
}

/** Streams COPY text into `sql` (a `COPY … FROM STDIN`); resolves with the row count. */
export async function copyText(client: PoolClient, sql: string, lines: Readable): Promise<number> {
  const copy = client.query(copyFrom(sql));
  await pipeline(lines, copy);
  return copy.rowCount;
}

// COPY text format: backslash, tab, newline and carriage return must be escaped; \N is NULL. Most values need no
// escaping, and testing for that first is cheaper than a replace per value (a million rows: ~15 million values).
const NEEDS_ESCAPE = /[\\\t\n\r]/;
const escapeCopy = (v: string) =>
  NEEDS_ESCAPE.test(v) ? v.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r')) : v;
const copyValue = (v: string | null) => (v === null ? '\\N' : escapeCopy(v));

/** One validated row as a line of COPY text format, columns as `COPY_COLUMNS`; built as one string, no arrays. */
export function toCopyLine(r: CostRow): string {
  let line = copyValue(COPY_COLUMNS[0][2](r));
  for (let i = 1; i < COPY_COLUMNS.length; i++) line += '\t' + copyValue(COPY_COLUMNS[i][2](r));
  return line + '\n';
}

/** COPY of rows (any iterable: written while it is still producing), constant columns first, then `columns` in order. */
export async function copyRows<T>(tx: PoolClient, table: string, columns: readonly (keyof T & string)[], constant: Record<string, string>, rows: Iterable<T>): Promise<void> {
  const prefix = Object.values(constant).map(copyValue).join('\t');
  const copy = tx.query(copyFrom(`COPY ${table} (${[...Object.keys(constant), ...columns].join(', ')}) FROM STDIN`));
  async function* text() {
    let chunk = '';
    for (const r of rows) {
      chunk += prefix;
      for (const c of columns) chunk += '\t' + copyValue(r[c] as string);
      chunk += '\n';
      if (chunk.length >= 256 * 1024) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk) yield chunk;
  }
  await pipeline(Readable.from(text(), { objectMode: false }), copy);
}
