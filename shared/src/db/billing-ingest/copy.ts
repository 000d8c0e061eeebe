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
 * COPY text written as UTF-8 bytes straight into a buffer, escaped on the way: a million rows' lines built as strings,
 * joined into chunks and encoded again as bytes spent more of the worker's time than the rows' checks (the encode of
 * the joined ropes alone was a tenth of it). Text that is all ASCII (nearly every value) is copied a character at a
 * time; a value with other characters is encoded by Buffer.write from its first such character on.
 */
export class CopyBytes {
  private buf: Buffer;
  private pos = 0;

  /** `size`: bytes held before `take` is due (the buffer grows past it for a row that does not fit). */
  constructor(private readonly size = 320 * 1024) {
    this.buf = Buffer.allocUnsafe(size);
  }

  get length(): number {
    return this.pos;
  }

  /** The bytes written so far (a buffer of their own); the writer starts again empty. */
  take(): Buffer {
    const out = this.buf.subarray(0, this.pos);
    this.buf = Buffer.allocUnsafe(Math.max(this.size, this.pos));
    this.pos = 0;
    return out;
  }

  /** Forgets what was written. */
  clear(): void {
    this.pos = 0;
  }

  /** Room for `n` more bytes. */
  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(2 * this.buf.length, this.pos + n));
    this.buf.copy(bigger, 0, 0, this.pos);
    this.buf = bigger;
  }

  /** Free text, escaped for COPY's text format (backslash, tab, line feed, carriage return). */
  text(v: string): void {
    const n = v.length;
    // escaped UTF-8 is at most 3 bytes per UTF-16 unit (2 for an escape, 3 for a BMP character, 4 for a pair)
    this.room(3 * n);
    const b = this.buf;
    let p = this.pos;
    for (let i = 0; i < n; i++) {
      const c = v.charCodeAt(i);
      if (c >= 0x20 && c < 0x7f && c !== 0x5c) {
        b[p++] = c;
        continue;
      }
      if (c >= 0x80) {
        this.pos = p + b.write(escapeCopy(v.slice(i)), p, 'utf8');
        return;
      }
      const e = c === 0x5c ? 0x5c : c === 0x09 ? 0x74 : c === 0x0a ? 0x6e : c === 0x0d ? 0x72 : -1;
      if (e < 0) b[p++] = c;
      else {
        b[p++] = 0x5c;
        b[p++] = e;
      }
    }
    this.pos = p;
  }

  /**
   * Text known to hold only ASCII that COPY takes as it is (checked days, decimals, currency codes, a batch id):
   * copied without looking for escapes.
   */
  plain(v: string): void {
    const n = v.length;
    this.room(n);
    const b = this.buf;
    let p = this.pos;
    for (let i = 0; i < n; i++) b[p++] = v.charCodeAt(i);
    this.pos = p;
  }

  /** Bytes already in COPY text (a line's constant columns). */
  bytes(v: Uint8Array): void {
    const n = v.length;
    this.room(n);
    const b = this.buf;
    let p = this.pos;
    for (let i = 0; i < n; i++) b[p++] = v[i];
    this.pos = p;
  }

  /** One byte: a separator (tab, line feed). */
  byte(c: number): void {
    this.room(1);
    this.buf[this.pos++] = c;
  }

  /** NULL (`\N`). */
  nul(): void {
    this.room(2);
    this.buf[this.pos++] = 0x5c;
    this.buf[this.pos++] = 0x4e;
  }
}

const TAB = 0x09;
const LF = 0x0a;

/**
 * COPY of a source's rows straight into `cost_line` (no staging): the statement, and each row's line written into a
 * CopyBytes with the batch's constant columns first, the labels as the given JSON text, and the amortisation last
 * (`line`: the same as a string, for tests). Rows must have passed validateRow: the day, money, currency and invoice
 * month it checked cannot hold a character COPY would need escaped, so only free text is escaped. Written out rather
 * than looped over LINE_COLUMNS; copy.test.ts holds it to LINE_COLUMNS' values.
 */
export function costLineCopy(b: { customerId: string; billingAccountId: string; batchId: string }): {
  sql: string;
  write: (out: CopyBytes, r: CostRow, x: LineExtras) => void;
  line: (r: CostRow, x: LineExtras) => string;
} {
  const prefix = Buffer.from(`${copyValue(b.customerId)}\t${copyValue(b.billingAccountId)}\t${copyValue(b.batchId)}\t`);
  const write = (out: CopyBytes, r: CostRow, x: LineExtras) => {
    out.bytes(prefix);
    out.text(r.provider);
    out.byte(TAB);
    out.text(r.provider_name);
    out.byte(TAB);
    out.plain(r.usage_date);
    out.byte(TAB);
    out.text(r.project_id);
    out.byte(TAB);
    out.text(r.project_name);
    out.byte(TAB);
    out.text(r.service);
    out.byte(TAB);
    out.text(r.sku);
    out.byte(TAB);
    out.plain(r.cost);
    out.byte(TAB);
    out.plain(r.credits);
    out.byte(TAB);
    out.plain(r.currency);
    out.byte(TAB);
    if (r.invoice_month === null) out.nul();
    else out.plain(r.invoice_month);
    out.byte(TAB);
    if (r.cost_type === null) out.nul();
    else out.text(r.cost_type);
    out.byte(TAB);
    out.text(x.project_labels);
    out.byte(TAB);
    out.text(x.resource_labels);
    out.byte(TAB);
    out.text(r.resource_id ?? '');
    out.byte(TAB);
    if (r.usage_quantity === null || r.usage_quantity === undefined) out.nul();
    else out.plain(r.usage_quantity);
    out.byte(TAB);
    out.plain(x.amortisation);
    out.byte(LF);
  };
  return {
    sql: `COPY cost_line (${COST_LINE_COPY_COLUMNS.join(', ')}) FROM STDIN`,
    write,
    line: (r, x) => {
      const out = new CopyBytes(256);
      write(out, r, x);
      return out.take().toString('utf8');
    },
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
