/**
 * The drop directory's file an ingest request names, checked as the api can check it without reading it whole: inside
 * the directory, a regular file, text (or gzip text, or Parquet) at its start. POST /v2/billing/ingest calls these
 * before it enqueues; the worker reads and checks the rest.
 */
import { resolve, sep } from 'node:path';
import { constants, gunzipSync } from 'node:zlib';
import { BadIngestCommand } from '@cc/shared/commands/billing-ingest.ts';
import { headOf, openIngestFile, SNIFF_BYTES } from '@cc/shared/commands/ingest-file.ts';
import { sniffText, type TextProblem } from '@cc/shared/commands/ingest-text.ts';
import { fileFormatOf } from '@cc/shared/commands/ingest-format.ts';

/**
 * The file a request names, as an absolute path inside the drop directory; anything resolving outside it
 * ('..', an absolute path elsewhere) is refused, so the route cannot make the worker read arbitrary files.
 */
export function dropFilePath(dropDir: string, file: string): string | null {
  const root = resolve(dropDir);
  const full = resolve(root, file);
  return full.startsWith(root + sep) ? full : null;
}

/** Unpacked text looked at, at most: deflate packs up to about 1,000 to 1, so a head could unpack to megabytes. */
const GZIP_SNIFF_BYTES = 1 << 20;

/**
 * The start of a gzip file unpacked as far as its first kilobytes go: corrupt from the start (zlib's reason, named
 * as the worker names it), or not text once unpacked. A file cut or damaged further on is the worker's to find.
 */
function gzipHeadProblem(head: Buffer): TextProblem | null {
  let text: Buffer;
  try {
    text = gunzipSync(head, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: GZIP_SNIFF_BYTES });
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === 'ERR_BUFFER_TOO_LARGE') return null;
    if (typeof code === 'string' && code.startsWith('Z_')) return { line: 1, reason: `the gzip file is truncated or corrupt at line 1: ${(err as Error).message}` };
    throw err;
  }
  return sniffText(text, false);
}

/**
 * The drop directory's file as the worker will read it: its real path (links resolved, still inside the directory),
 * a regular file, text at its start, and its version for the job id. Only the first kilobytes are read: hashing
 * and parsing are the worker's, so the answer comes at once whatever the file's size.
 */
export async function checkDropFile(dropDir: string, full: string): Promise<{ path: string; version: string }> {
  const file = await openIngestFile(full, { dropDir });
  try {
    const head = await headOf(file);
    // CSV is looked at as it is, gzip as its start unpacks, Parquet (binary by design) not: the worker reads the rest
    const format = fileFormatOf(head);
    const problem = format === 'csv' ? sniffText(head, file.size <= SNIFF_BYTES) : format === 'gzip' ? gzipHeadProblem(head) : null;
    if (problem) throw new BadIngestCommand('file-not-text', `file rejected, nothing loaded: line ${problem.line}: ${problem.reason}`);
    return { path: file.path, version: file.version };
  } finally {
    await file.handle.close();
  }
}
