/**
 * Port: the documents of a customer's playbook folder (spec 001 §2.11). `real` lists a Google Drive folder
 * (shared/src/adapters/playbook/real.ts) and previews by the file's webViewLink; `local` lists a folder on disk and the api
 * serves the file itself (shared/src/adapters/playbook/local.ts).
 */
export interface PlaybookFile {
  id: string;
  name: string;
  /** Drive's webViewLink; null when the api serves the file (local). */
  webViewLink: string | null;
}

export interface LocalPlaybookDocument {
  name: string;
  contentType: string;
  bytes: Buffer;
}

export interface Playbook {
  readonly name: 'drive' | 'local';
  /** The documents directly in the folder (no sub-folders, nothing trashed), by name. */
  list(folderId: string): Promise<PlaybookFile[]>;
  /** A document's bytes for the preview (local only); null when the folder holds no such file. */
  open(folderId: string, id: string): Promise<LocalPlaybookDocument | null>;
}
