/**
 * FOCUS 1.0 CSV files (AWS, Azure, Oracle and any other FOCUS producer), streamed with csv-parse so
 * a file of any size is read in constant memory. Mapping decisions: docs/decisions-billing.md.
 */
import { pipeline } from 'node:stream';
import { parse, CsvError } from 'csv-parse';
import { openIngestFile } from '@cc/shared/commands/ingest-file.ts';
import { billingDay, isIsoDate } from '@cc/shared/time.ts';
import type { BillingSource, CostRow, SourceItem } from '@cc/shared/ports/billing-source.ts';
import { checkedText, TextRefused } from './checked-text.ts';

/**
 * FOCUS ProviderName → the portal's providers (spec 000: gcp, aws, azure). Matched case-insensitively on the name
 * as providers write it (Google's FOCUS export says 'Google Cloud Platform', AWS 'AWS', Azure 'Microsoft').
 */
const PROVIDER_IDS: Record<string, string> = {
  aws: 'aws',
  amazon: 'aws',
  'amazon web services': 'aws',
  'amazon web services, inc.': 'aws',
  microsoft: 'azure',
  'microsoft azure': 'azure',
  'microsoft corporation': 'azure',
  azure: 'azure',
  'google cloud': 'gcp',
  'google cloud platform': 'gcp',
  google: 'gcp',
  gcp: 'gcp',
};

/** The providers the dashboard offers by name; any other is stored under its own slug and counted under 'All'. */
export const PORTAL_PROVIDERS: readonly string[] = ['gcp', 'aws', 'azure'];

/** Any other producer keeps its own id: the name lower-cased, non-alphanumerics as '-' (Oracle → oracle). */
export function providerId(providerName: string): string {
  const key = providerName.trim().toLowerCase();
  return PROVIDER_IDS[key] ?? key.replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

/**
 * The longest record (characters) and the most bytes without a record ending: a FOCUS row is a few kilobytes, so
 * anything near these is not FOCUS CSV, and stopping there bounds the parser's memory and time (a 2 GB file of NUL
 * bytes or blank lines is refused after a few MiB instead of being parsed for an hour).
 */
export const MAX_RECORD_CHARS = 1024 * 1024;
export const MAX_BYTES_WITHOUT_RECORD = 4 * 1024 * 1024;
/** FOCUS has fewer than 100 columns; the parser spends ~30 µs on each field, so a line of 10 million commas is refused. */
export const MAX_FIELDS = 10_000;

const NOT_COMMA_SEPARATED = ` (the file is not comma-separated: FOCUS CSV files use ',')`;

const REQUIRED = ['BilledCost', 'BillingCurrency', 'ChargePeriodStart', 'ChargeCategory', 'ProviderName'] as const;

// FOCUS datetimes are UTC ISO 8601; exports write them with a space or a T, with or without a Z.
const TIMESTAMP_RE = /^(\d{4}-\d{2}-\d{2})[T ]((\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * A FOCUS datetime as epoch ms, or null. The calendar is checked first: Date.parse rolls '2026-02-30' over to
 * 2 March and '24:00' to the next day, and a date that does not exist is a broken file, not something to guess.
 */
function parseUtc(value: string): number | null {
  const m = TIMESTAMP_RE.exec(value.trim());
  if (!m || !isIsoDate(m[1])) return null;
  if (Number(m[3]) > 23 || Number(m[4]) > 59 || Number(m[5] ?? 0) > 59) return null;
  const offset = m[6] ?? 'Z';
  const ms = Date.parse(`${m[1]}T${m[2]}${offset === 'Z' ? 'Z' : offset.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2')}`);
  return Number.isNaN(ms) ? null : ms;
}

function parseTags(raw: string | null): Record<string, string> | string {
  if (raw === null || raw === '') return {};
  let tags: unknown;
  try {
    tags = JSON.parse(raw);
  } catch {
    return `Tags is not valid JSON`;
  }
  if (typeof tags !== 'object' || tags === null || Array.isArray(tags)) return 'Tags is not a JSON object';
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(tags)) {
    // FOCUS says tag values are strings; a producer writing a number or boolean still means its text.
    if (v !== null && v !== undefined) out[k] = typeof v === 'string' ? v : JSON.stringify(v);
  }
  return out;
}

/** Said in the ingest output when a file cannot give the amortised view (docs/decisions-billing.md, "Billed / Amortised"). */
export const NO_EFFECTIVE_COST_COLUMN = 'the file has no EffectiveCost column: its amortised cost is taken as its billed cost (BilledCost)';
export const noEffectiveCostRows = (n: number) =>
  `${n} row${n === 1 ? ' has' : 's have'} no EffectiveCost: amortised cost taken as billed cost (BilledCost) for ${n === 1 ? 'it' : 'them'}`;

/** A bad amount is reported by its FOCUS column, like every other FOCUS error (credits are BilledCost of Credit rows). */
const MONEY_FIELDS = { cost: 'BilledCost', credits: 'BilledCost', effective_cost: 'EffectiveCost' } as const;

/** A parser error as a bad line's reason: the record-size limit in the file's terms, the others as csv-parse says them. */
function csvReason(err: CsvError, header: string[] | null): string {
  if (err.code === 'CSV_MAX_RECORD_SIZE') return `a record is longer than ${MAX_RECORD_CHARS / 1024} KiB characters: the file is not FOCUS CSV`;
  const hint = header === null && /got "[;\t]"/.test(err.message) ? NOT_COMMA_SEPARATED : '';
  return `unreadable CSV: ${err.message}${hint}`;
}

/** `dropDir`: the file must lie inside it, checked again when it is opened (the worker; the CLI reads any path). */
export function focusCsvSource(path: string, opts: { dropDir?: string } = {}): BillingSource {
  let bytesRead = 0;
  let size = 0;
  // EffectiveCost is mandatory in FOCUS, yet hand-made or older files lack it: counted, and said in the ingest output.
  let hasEffectiveColumn = true;
  let rowsWithoutEffective = 0;
  return {
    label: path,
    moneyFields: MONEY_FIELDS,
    position: () => (size ? { done: bytesRead, total: size } : undefined),
    notes: () => (!hasEffectiveColumn ? [NO_EFFECTIVE_COST_COLUMN] : rowsWithoutEffective > 0 ? [noEffectiveCostRows(rowsWithoutEffective)] : []),
    async *rows(): AsyncGenerator<SourceItem> {
      const opened = await openIngestFile(path, opts);
      size = opened.size;
      const file = opened.handle.createReadStream({ start: 0 });
      file.on('data', (c) => (bytesRead += c.length));
      const text = checkedText({ fileSize: size, maxBytesWithoutRecord: MAX_BYTES_WITHOUT_RECORD });
      const parser = parse({
        bom: true,
        info: true,
        relax_column_count: true,
        skip_empty_lines: true,
        max_record_size: MAX_RECORD_CHARS,
        // Exports write SQL-style NULL unquoted; a quoted "NULL" stays text.
        cast: (value, ctx) => {
          if (ctx.index >= MAX_FIELDS) throw new TextRefused({ line: ctx.lines, reason: `a record has more than ${MAX_FIELDS} fields: the file is not FOCUS CSV` });
          return (!ctx.quoting && value === 'NULL') || value === '' ? null : value;
        },
        on_record: (record, ctx) => {
          text.recordEnded(ctx.bytes, ctx.lines);
          return record;
        },
      });
      // Any stage failing destroys the others with its error, which the loop below then meets; the file closes.
      pipeline(file, text.stream, parser, () => undefined);
      let header: string[] | null = null;
      let col: Record<string, number> = {};
      try {
        for await (const { record, info } of parser as AsyncIterable<{ record: (string | null)[]; info: { lines: number } }>) {
          const line = info.lines;
          if (!header) {
            header = record.map((h) => h ?? '');
            col = Object.fromEntries(header.map((h, i) => [h, i]));
            const missing = REQUIRED.filter((c) => !(c in col));
            if (missing.length) {
              // A file from a spreadsheet in a comma-decimal locale comes as one ';'-separated column.
              const hint = header.length === 1 && /[;\t]/.test(header[0]) ? NOT_COMMA_SEPARATED : '';
              yield { line, error: `header is missing FOCUS column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}${hint}` };
              return;
            }
            hasEffectiveColumn = 'EffectiveCost' in col;
            continue;
          }
          if (record.length !== header.length) {
            yield { line, error: `has ${record.length} fields, the header has ${header.length}` };
            continue;
          }
          const get = (name: string) => (name in col ? record[col[name]] : null);
          const start = get('ChargePeriodStart');
          const startMs = start === null ? null : parseUtc(start);
          if (startMs === null) {
            yield { line, error: start === null ? 'missing ChargePeriodStart' : `invalid ChargePeriodStart '${start}'` };
            continue;
          }
          const tags = parseTags(get('Tags'));
          if (typeof tags === 'string') {
            yield { line, error: tags };
            continue;
          }
          const providerName = get('ProviderName') ?? '';
          const category = get('ChargeCategory') ?? '';
          const billed = get('BilledCost') ?? '';
          // Amortised cost: a prepaid commitment's purchase row has EffectiveCost 0, the usage it covers carries its share.
          const effective = get('EffectiveCost');
          if (hasEffectiveColumn && effective === null) rowsWithoutEffective++;
          // Credits go to the credits column (as GCP's do) so cost + credits is spend for every provider.
          const isCredit = category.toLowerCase() === 'credit';
          // The billing period is what an export replaces (decisions: "Files: exports, corrections, duplicates").
          const periodStart = get('BillingPeriodStart');
          const periodMatch = periodStart === null ? null : TIMESTAMP_RE.exec(periodStart.trim());
          if (periodStart !== null && (periodMatch === null || parseUtc(periodStart) === null)) {
            yield { line, error: `invalid BillingPeriodStart '${periodStart}'` };
            continue;
          }
          const row: CostRow = {
            provider: providerId(providerName),
            provider_name: providerName.trim(),
            usage_date: billingDay(startMs),
            project_id: get('SubAccountId') ?? '',
            project_name: get('SubAccountName') ?? '',
            service: get('ServiceName') ?? '',
            sku: get('SkuId') ?? '',
            cost: isCredit ? '0' : billed,
            credits: isCredit ? billed : '0',
            effective_cost: effective,
            currency: (get('BillingCurrency') ?? '').trim(),
            // The month as the provider writes it: its periods start at midnight of its own calendar.
            invoice_month: periodMatch ? periodMatch[1].slice(0, 4) + periodMatch[1].slice(5, 7) : null,
            cost_type: category ? category.toLowerCase() : null,
            project_labels: {},
            resource_labels: tags,
            resource_id: get('ResourceId') ?? '',
            correction: (get('ChargeClass') ?? '').trim().toLowerCase() === 'correction',
          };
          yield { line, row };
        }
      } catch (err) {
        // A broken quote or similar stops the parser; report where, as one more bad line. Every parser error is
        // the file's fault (some codes, e.g. INVALID_OPENING_QUOTE, lack the CSV_ prefix); a read error is not.
        if (err instanceof CsvError) {
          yield { line: typeof err.lines === 'number' ? Math.max(1, err.lines) : 1, error: csvReason(err, header) };
          return;
        }
        if (err instanceof TextRefused) {
          yield { line: err.problem.line, error: err.problem.reason };
          return;
        }
        throw err;
      }
    },
  };
}
