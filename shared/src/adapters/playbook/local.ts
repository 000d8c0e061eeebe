/**
 * Local playbooks (PLAYBOOK=local, the default): a folder per drive_id under PLAYBOOK_DIR, and the built-in
 * runbooks shipped in infra/playbooks for the folder id `builtin`. Only plain files directly in the folder count.
 */
import { readdir, readFile } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Playbook } from '../../ports/playbook.ts';

export const BUILTIN_FOLDER = 'builtin';
export const BUILTIN_DIR = fileURLToPath(new URL('../../../../infra/playbooks', import.meta.url));

/** Markdown and text are shown as text: browsers offer text/markdown as a download instead of a preview. */
const CONTENT_TYPES: Record<string, string> = {
  '.md': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.pdf': 'application/pdf',
  '.html': 'text/html; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
};

// Drive ids are letters, digits, '-' and '_': anything else (a '..', a slash) names no folder here.
const SAFE_ID = /^[A-Za-z0-9_-]{1,200}$/;
const SAFE_FILE = /^[^/\\\0]{1,200}$/;

export function localPlaybook(opts: { dir: string; builtinDir?: string }): Playbook {
  const folderPath = (folderId: string) => {
    if (folderId === BUILTIN_FOLDER) return opts.builtinDir ?? BUILTIN_DIR;
    return SAFE_ID.test(folderId) ? join(resolve(opts.dir), folderId) : null;
  };
  const typeOf = (file: string) => CONTENT_TYPES[extname(file).toLowerCase()] ?? null;

  async function files(folderId: string): Promise<string[]> {
    const dir = folderPath(folderId);
    if (!dir) return [];
    try {
      const entries = await readdir(dir, { withFileTypes: true });
      return entries.filter((e) => e.isFile() && !e.name.startsWith('.') && typeOf(e.name)).map((e) => e.name).sort((a, b) => a.localeCompare(b));
    } catch (err) {
      // A folder that does not exist lists empty, as a Drive query on an unknown parent does.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
  }

  return {
    name: 'local',
    async list(folderId) {
      return (await files(folderId)).map((f) => ({ id: f, name: f.replace(/\.[^.]+$/, ''), webViewLink: null }));
    },
    async open(folderId, id) {
      if (!SAFE_FILE.test(id) || id.startsWith('.')) return null;
      if (!(await files(folderId)).includes(id)) return null;
      return { name: id, contentType: typeOf(id)!, bytes: await readFile(join(folderPath(folderId)!, id)) };
    },
  };
}
