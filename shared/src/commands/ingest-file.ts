/**
 * Opening a billing file safely: what the api checks before it queues a file and what the worker checks again
 * when it reads it (the drop folder may change in between). A file is read only through its real path inside the
 * drop directory, only if it is a regular file, and every open verifies the descriptor it got rather than the
 * name it asked for, so a link or FIFO swapped in after a check is refused too.
 */
import { constants } from 'node:fs';
import { open, readlink, realpath, type FileHandle } from 'node:fs/promises';
import { sep } from 'node:path';
import { BadIngestCommand } from './billing-ingest.ts';

export interface IngestFile {
  handle: FileHandle;
  /** The real path (links resolved). */
  path: string;
  size: number;
  /**
   * Which version of the file this is, from its metadata (inode, size, modification time): a file fixed and
   * dropped again under its name is a new version, the same file posted twice is one. Cheap, unlike a hash.
   */
  version: string;
}

/** The real path of `dir`, or the path as given when it does not exist (then nothing can be inside it). */
async function realDir(dir: string): Promise<string> {
  return realpath(dir).catch(() => dir);
}

/** True when `path` is `dir` itself or lies below it. */
const isInside = (dir: string, path: string) => path.startsWith(dir.endsWith(sep) ? dir : dir + sep);

/**
 * Opens `file` for reading. `dropDir`: the file's real path must lie inside that directory's real path (the api and
 * the worker; the `cc ingest` CLI is run by someone with a shell and reads any path). Never blocks on a FIFO or
 * device (O_NONBLOCK) and never follows a link in the last step (O_NOFOLLOW); the caller closes the handle.
 */
export async function openIngestFile(file: string, opts: { dropDir?: string } = {}): Promise<IngestFile> {
  let real: string;
  try {
    real = await realpath(file);
  } catch {
    throw new BadIngestCommand('file-not-found', `file not found: ${file}`);
  }
  const root = opts.dropDir === undefined ? null : await realDir(opts.dropDir);
  if (root !== null && !isInside(root, real)) throw new BadIngestCommand('file-outside', 'file must be inside the ingest drop directory');
  let handle: FileHandle;
  try {
    handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // ELOOP: the last step became a link after realpath looked.
    if (code === 'ELOOP') throw new BadIngestCommand('file-outside', 'file must be inside the ingest drop directory');
    throw new BadIngestCommand('file-not-found', `file not found: ${file}`);
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new BadIngestCommand('file-not-regular', 'file is not a regular file (a FIFO, device or directory cannot be ingested)');
    // A directory on the way swapped for a link between realpath and open: the descriptor says where it really is.
    if (root !== null && process.platform === 'linux') {
      const opened = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => real);
      if (!isInside(root, opened)) throw new BadIngestCommand('file-outside', 'file must be inside the ingest drop directory');
    }
    return { handle, path: real, size: st.size, version: `${st.ino}-${st.size}-${Math.floor(st.mtimeMs)}` };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** How many bytes of a file the api and the worker look at before anything else: enough to tell text from binary. */
export const SNIFF_BYTES = 8 * 1024;

/** The first SNIFF_BYTES of an opened file (fewer when it is shorter). */
export async function headOf(file: IngestFile): Promise<Buffer> {
  const buf = Buffer.alloc(Math.min(SNIFF_BYTES, file.size));
  const { bytesRead } = await file.handle.read(buf, 0, buf.length, 0);
  return buf.subarray(0, bytesRead);
}
