/**
 * The demo customers' playbook folders for local playbooks (PLAYBOOK=local): each folder of infra/playbooks-demo,
 * named by the customer's drive_id (Acme: 1AcmePlaybookFolderId), copied into PLAYBOOK_DIR so the Playbook screen of
 * the demo's showcase customer lists documents. Idempotent: the files are written again on every seed.
 */
import { cp, mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export const DEMO_PLAYBOOKS_DIR = fileURLToPath(new URL('../playbooks-demo', import.meta.url));

/** Copies the demo playbook folders into `dir` (PLAYBOOK_DIR). */
export async function seedPlaybooks(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await cp(DEMO_PLAYBOOKS_DIR, dir, { recursive: true, force: true });
}
