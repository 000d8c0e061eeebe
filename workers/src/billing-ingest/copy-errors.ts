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

/** The file line and reason of a COPY data error, or null when the error is not one (a lost connection). */
export function copyErrorLine(err: unknown, copiedLines: readonly number[]): { line: number; reason: string } | null {
  if (!isDataError(err)) return null;
  const e = err as PgError;
  const m = typeof e.where === 'string' ? /COPY \S+, line (\d+)/.exec(e.where) : null;
  const copyLine = m ? Number(m[1]) : NaN;
  const line = copiedLines[copyLine - 1];
  if (line === undefined) return null;
  return { line, reason: `the database refused the row: ${String(e.message)}` };
}
