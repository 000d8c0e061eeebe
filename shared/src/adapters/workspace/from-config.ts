/**
 * Picks the Workspace adapter (WORKSPACE=local|real); the api and the worker both build it here. The real adapter's
 * Google client is imported only in real mode: it is ~150 modules that every process (and every test) would load.
 */
import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/pool.ts';
import type { Workspace } from '../../ports/workspace.ts';
import { localWorkspace } from './local.ts';

export async function workspaceFromConfig(config: Config, db: Queryable): Promise<Workspace> {
  if (config.WORKSPACE === 'local') return localWorkspace(db);
  const { googleWorkspace } = await import('./real.ts');
  return googleWorkspace({
    keyFile: config.GOOGLE_WORKSPACE_KEY_FILE,
    subject: config.WORKSPACE_ADMIN,
    ...(config.WORKSPACE_ROOT_URL ? { rootUrl: config.WORKSPACE_ROOT_URL } : {}),
  });
}
