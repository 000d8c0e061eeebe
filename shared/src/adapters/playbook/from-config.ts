/** Picks the playbook adapter (PLAYBOOK=local|real). */
import type { Config } from '../../config.ts';
import type { Playbook } from '../../ports/playbook.ts';
import { drivePlaybook } from './real.ts';
import { localPlaybook } from './local.ts';

export function playbookFromConfig(config: Config): Playbook {
  if (config.PLAYBOOK === 'local') return localPlaybook({ dir: config.PLAYBOOK_DIR });
  return drivePlaybook({
    keyFile: config.GOOGLE_WORKSPACE_KEY_FILE,
    ...(config.PLAYBOOK_SUBJECT ? { subject: config.PLAYBOOK_SUBJECT } : {}),
    ...(config.PLAYBOOK_ROOT_URL ? { rootUrl: config.PLAYBOOK_ROOT_URL } : {}),
  });
}
