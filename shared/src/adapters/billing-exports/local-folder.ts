/**
 * A folder holding objects as a bucket or container would (one file per key, `/` as directories), for the local
 * adapters of the export stores: the demo and offline runs read the providers' own layouts from disk. ETags are
 * content hashes, as S3's are for single-part uploads.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';

export interface LocalObject {
  key: string;
  etag: string;
  modified: number;
}

export function localFolder(root: string) {
  const base = resolve(root);
  const pathOf = (key: string) => {
    const p = resolve(base, key);
    if (p !== base && !p.startsWith(base + sep)) throw new Error(`key ${key} leaves the folder`);
    return p;
  };
  const etag = async (p: string) => createHash('md5').update(await readFile(p)).digest('hex');
  return {
    async list(prefix: string): Promise<LocalObject[]> {
      const out: LocalObject[] = [];
      const walk = async (dir: string) => {
        let entries;
        try {
          entries = await readdir(dir, { withFileTypes: true });
        } catch {
          return;
        }
        for (const e of entries) {
          const p = join(dir, e.name);
          if (e.isDirectory()) await walk(p);
          else if (e.isFile()) {
            const key = relative(base, p).split(sep).join('/');
            if (key.startsWith(prefix)) out.push({ key, etag: await etag(p), modified: (await stat(p)).mtimeMs });
          }
        }
      };
      await walk(base);
      return out.sort((a, b) => a.key.localeCompare(b.key));
    },
    async etagOf(key: string): Promise<string | null> {
      try {
        return await etag(pathOf(key));
      } catch {
        return null;
      }
    },
    read: (key: string) => readFile(pathOf(key), 'utf8'),
    stream: (key: string) => createReadStream(pathOf(key)),
  };
}
