/**
 * Real playbooks (PLAYBOOK=real): Drive v3 files.list on the folder through `@googleapis/drive`, as a service
 * account (optionally acting as PLAYBOOK_SUBJECT). Shared drives need supportsAllDrives and
 * includeItemsFromAllDrives (without them a shared-drive folder lists empty or answers 404); pages may be partial or
 * empty before the end, so the listing goes on until nextPageToken is absent. Preview: the file's webViewLink.
 */
import { auth as googleAuth, drive, type drive_v3 } from '@googleapis/drive';
import type { Playbook, PlaybookFile } from '../../ports/playbook.ts';

export const DRIVE_SCOPES = ['https://www.googleapis.com/auth/drive.readonly'];
const FOLDER_MIME = 'application/vnd.google-apps.folder';

export interface DrivePlaybookOptions {
  auth?: drive_v3.Options['auth'];
  keyFile?: string;
  subject?: string;
  rootUrl?: string;
}

/** A Drive query string literal: backslash and quote escaped. */
const literal = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

export function drivePlaybook(opts: DrivePlaybookOptions): Playbook {
  const auth = opts.auth ?? new googleAuth.JWT({ keyFile: opts.keyFile, scopes: DRIVE_SCOPES, ...(opts.subject ? { subject: opts.subject } : {}) });
  const files = drive({ version: 'v3', auth, ...(opts.rootUrl ? { rootUrl: opts.rootUrl } : {}) }).files;
  return {
    name: 'drive',
    async list(folderId) {
      const out: PlaybookFile[] = [];
      let pageToken: string | undefined;
      do {
        const { data } = await files.list({
          q: `${literal(folderId)} in parents and trashed = false`,
          fields: 'nextPageToken, files(id, name, mimeType, webViewLink)',
          pageSize: 100,
          orderBy: 'name',
          supportsAllDrives: true,
          includeItemsFromAllDrives: true,
          pageToken,
        });
        for (const f of data.files ?? []) {
          if (f.id && f.mimeType !== FOLDER_MIME) out.push({ id: f.id, name: f.name ?? f.id, webViewLink: f.webViewLink ?? null });
        }
        pageToken = data.nextPageToken ?? undefined;
      } while (pageToken);
      return out;
    },
    async open() {
      return null;
    },
  };
}
