/**
 * Writing a downloaded export file to disk, shared by the S3 and Blob Storage adapters. Gzip CSV (how both
 * providers compress CSV) is unpacked after the download, recognised by its magic bytes rather than its name, so the
 * file ingest receives plain CSV; Parquet and plain CSV stay as they came. The file appears under its name only once
 * complete (written beside it first, then renamed), so a process killed mid-download leaves nothing that looks
 * finished.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';

async function isGzip(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await handle.read(head, 0, 2, 0);
    return bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

/** Streams `body` to `path` (gunzipped when it is gzip), atomically. */
export async function writeExportFile(body: Readable, path: string): Promise<void> {
  const raw = `${path}.download`;
  const unpacked = `${path}.gunzip`;
  try {
    await pipeline(body, createWriteStream(raw));
    if (await isGzip(raw)) {
      await pipeline(createReadStream(raw), createGunzip(), createWriteStream(unpacked));
      await rename(unpacked, path);
    } else {
      await rename(raw, path);
    }
  } finally {
    await rm(raw, { force: true });
    await rm(unpacked, { force: true });
  }
}
