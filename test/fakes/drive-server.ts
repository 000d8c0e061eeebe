/**
 * In-process fake of Drive v3 files.list as `@googleapis/drive` reaches it through `rootUrl`. Like Drive: the query
 * `'<folder>' in parents and trashed = false` is honoured (trashed files come back without the trashed clause), a
 * folder on a shared drive lists empty unless supportsAllDrives and includeItemsFromAllDrives are both true, and
 * pages can be partial or even empty before the last one, which alone has no nextPageToken.
 */
import { startGoogleFake, type GoogleFake } from './google-rest.ts';

export interface FakeDriveFile {
  id: string;
  name: string;
  parent: string;
  mimeType?: string;
  trashed?: boolean;
}

export interface FakeDrive extends GoogleFake {
  rootUrl: string;
  files: FakeDriveFile[];
  /** Folders that live on a shared drive. */
  sharedDriveFolders: Set<string>;
  /** Items per page; every other page comes back empty (with a token), as Drive may answer. */
  pageSize: number;
}

const FOLDER_Q = /^'((?:[^'\\]|\\.)*)' in parents and trashed = false$/;

export async function startFakeDrive(): Promise<FakeDrive> {
  const state = { files: [] as FakeDriveFile[], sharedDriveFolders: new Set<string>(), pageSize: 2 };
  const fake = await startGoogleFake('drive', [
    (req, send) => {
      if (req.method !== 'GET' || req.path !== '/drive/v3/files') return false;
      const m = FOLDER_Q.exec(req.query.get('q') ?? '');
      if (!m) {
        send(400, { error: { code: 400, message: 'Invalid Value', errors: [{ message: 'Invalid Value', domain: 'global', reason: 'invalid', location: 'q' }] } });
        return true;
      }
      const folder = m[1].replace(/\\(.)/g, '$1');
      const allDrives = req.query.get('supportsAllDrives') === 'true' && req.query.get('includeItemsFromAllDrives') === 'true';
      const visible = state.sharedDriveFolders.has(folder) && !allDrives ? [] : state.files.filter((f) => f.parent === folder && !f.trashed);
      // The token counts pages; odd pages are empty, even pages carry up to pageSize files.
      const page = Number(req.query.get('pageToken') ?? 0);
      const offset = Math.floor(page / 2) * state.pageSize;
      const files = page % 2 === 1 ? [] : visible.slice(offset, offset + state.pageSize);
      const more = page % 2 === 1 ? offset < visible.length : offset + state.pageSize < visible.length;
      send(200, {
        kind: 'drive#fileList',
        incompleteSearch: false,
        files: files.map((f) => ({ id: f.id, name: f.name, mimeType: f.mimeType ?? 'application/vnd.google-apps.document', webViewLink: `https://docs.google.com/document/d/${f.id}/edit?usp=drivesdk` })),
        ...(more ? { nextPageToken: String(page + 1) } : {}),
      });
      return true;
    },
  ], { specs: ['drive.v3.json'] });
  return {
    ...fake,
    rootUrl: `http://127.0.0.1:${fake.endpoint.port}/`,
    files: state.files,
    sharedDriveFolders: state.sharedDriveFolders,
    get pageSize() {
      return state.pageSize;
    },
    set pageSize(n: number) {
      state.pageSize = n;
    },
    close: fake.close,
  };
}
