import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { GENERATED_NAME_RE, UPLOAD_PATH, uploadSignature, type AttachmentStore } from '../../ports/attachment-store.ts';

/**
 * Local disk: files under `dir`, uploads signed with an HMAC over (name, expiry) and PUT to the api itself.
 * The URL is a path on the api (not absolute) so it works behind any host name and the web dev server's proxy.
 */
export function localAttachmentStore(opts: { dir: string; secret: string }): AttachmentStore {
  const root = resolve(opts.dir);
  const pathOf = (name: string) => {
    if (!GENERATED_NAME_RE.test(name)) throw new Error(`bad attachment name '${name}'`);
    return join(root, name.slice(0, 2), name);
  };
  return {
    kind: 'local',
    async signedUploadUrl(name, expiresAt) {
      const expires = Math.floor(expiresAt.getTime() / 1000);
      return `${UPLOAD_PATH}/${encodeURIComponent(name)}?expires=${expires}&signature=${uploadSignature(opts.secret, name, expires)}`;
    },
    async put(name, bytes) {
      const path = pathOf(name);
      await mkdir(join(path, '..'), { recursive: true });
      // write then rename: a reader never sees half a file
      const tmp = `${path}.${process.pid}.tmp`;
      await writeFile(tmp, bytes);
      await rename(tmp, path);
    },
    async get(name) {
      try {
        return await readFile(pathOf(name));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async remove(name) {
      await rm(pathOf(name), { force: true });
    },
  };
}
