/**
 * What a billing file is, told by its first bytes rather than its name: providers deliver FOCUS exports as CSV, gzip
 * CSV (1f 8b) or Parquet ("PAR1" at both ends), and a renamed or extension-less file is still read as what it is.
 * Only CSV is held to the text checks (UTF-8, no binary first kilobytes); gzip is checked once decompressed and
 * Parquet is binary by design.
 */
export type IngestFileFormat = 'csv' | 'gzip' | 'parquet';

export function fileFormatOf(head: Buffer): IngestFileFormat {
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  if (head.length >= 4 && head[0] === 0x50 && head[1] === 0x41 && head[2] === 0x52 && head[3] === 0x31) return 'parquet';
  return 'csv';
}
