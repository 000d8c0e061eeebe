/**
 * Which line of a file a COPY error is about. PostgreSQL names the COPY data line it refused (its `where`:
 * "COPY cost_line, line 3, column …"); the ingest keeps the file line of every row it sent.
 */

// SQLSTATE classes that mean "this value cannot be stored": 22 data exception, 23 integrity constraint, 54 limits.
const DATA_CLASSES = ['22', '23', '54'];

interface PgError {
  code?: unknown;
  where?: unknown;
  message?: unknown;
}

/** True for a PostgreSQL error caused by the data itself; retrying cannot help. */
export function isDataError(err: unknown): boolean {
  const code = (err as PgError | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && DATA_CLASSES.includes(code.slice(0, 2));
}

/**
 * The file line of each row sent to COPY, kept as runs of consecutive lines (a file's rows mostly follow each other:
 * one run, whatever its size), so memory does not grow with the rows.
 */
export class CopiedLines {
  // run k: COPY lines from starts[k] (1-based) on are file lines from lines[k] on, one each
  private readonly starts: number[] = [];
  private readonly lines: number[] = [];
  private count = 0;
  private last = -1;

  /** The next row sent to COPY came from file line `line`. */
  push(line: number): void {
    this.count++;
    if (line !== this.last + 1) {
      this.starts.push(this.count);
      this.lines.push(line);
    }
    this.last = line;
  }

  /** How many runs are kept (what the memory grows with). */
  get runs(): number {
    return this.starts.length;
  }

  /** The file line of COPY line `copyLine` (1-based), or undefined when no such row was sent. */
  lineOf(copyLine: number): number | undefined {
    if (!Number.isInteger(copyLine) || copyLine < 1 || copyLine > this.count) return undefined;
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= copyLine) lo = mid;
      else hi = mid - 1;
    }
    return this.lines[lo] + (copyLine - this.starts[lo]);
  }
}

/** The file line and reason of a COPY data error, or null when the error is not one (a lost connection). */
export function copyErrorLine(err: unknown, copiedLines: CopiedLines): { line: number; reason: string } | null {
  if (!isDataError(err)) return null;
  const e = err as PgError;
  const m = typeof e.where === 'string' ? /COPY \S+, line (\d+)/.exec(e.where) : null;
  const line = copiedLines.lineOf(m ? Number(m[1]) : NaN);
  if (line === undefined) return null;
  return { line, reason: `the database refused the row: ${String(e.message)}` };
}
