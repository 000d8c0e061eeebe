/** Picks the Workspace adapter (WORKSPACE=local|real); the api and the worker both build it here. */
import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/pool.ts';
import type { Workspace } from '../../ports/workspace.ts';
import { googleWorkspace } from './real.ts';
import { localWorkspace } from './local.ts';

export function workspaceFromConfig(config: Config, db: Queryable): Workspace {
  if (config.WORKSPACE === 'local') return localWorkspace(db);
  return googleWorkspace({
    keyFile: config.GOOGLE_WORKSPACE_KEY_FILE,
    subject: config.WORKSPACE_ADMIN,
    ...(config.WORKSPACE_ROOT_URL ? { rootUrl: config.WORKSPACE_ROOT_URL } : {}),
  });
}
