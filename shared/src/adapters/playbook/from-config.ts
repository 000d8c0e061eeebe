/** Picks the playbook adapter (PLAYBOOK=local|real); the Drive client is imported only in real mode. */
import type { Config } from '../../config.ts';
import type { Playbook } from '../../ports/playbook.ts';
import { localPlaybook } from './local.ts';

export async function playbookFromConfig(config: Config): Promise<Playbook> {
  if (config.PLAYBOOK === 'local') return localPlaybook({ dir: config.PLAYBOOK_DIR });
  const { drivePlaybook } = await import('./real.ts');
  return drivePlaybook({
    keyFile: config.GOOGLE_WORKSPACE_KEY_FILE,
    ...(config.PLAYBOOK_SUBJECT ? { subject: config.PLAYBOOK_SUBJECT } : {}),
    ...(config.PLAYBOOK_ROOT_URL ? { rootUrl: config.PLAYBOOK_ROOT_URL } : {}),
  });
}
