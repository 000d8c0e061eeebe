import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/pool.ts';
import type { CloudProjects } from '../../ports/cloud-projects.ts';
import { localCloudProjects } from './local.ts';
import { realCloudProjects } from './real.ts';

/**
 * The granted projects as Google answers them, asked with the provider's application default credentials (loaded at
 * the first call). The inventory's real source lists projects the same way.
 */
export function googleCloudProjects(): CloudProjects {
  let auth: import('google-auth-library').GoogleAuth | null = null;
  return realCloudProjects({
    sourceToken: async () => {
      if (!auth) {
        const { GoogleAuth } = await import('google-auth-library');
        auth = new GoogleAuth({ scopes: ['https://www.googleapis.com/auth/cloud-platform'] });
      }
      const token = await auth.getAccessToken();
      if (!token) throw new Error('no Google access token from application default credentials');
      return token;
    },
  });
}

/** The granted-projects adapter the configuration names (CLOUD_PROJECTS=local|real), for the api and the workers. */
export function cloudProjectsFromConfig(config: Pick<Config, 'CLOUD_PROJECTS'>, db: Queryable): CloudProjects {
  return config.CLOUD_PROJECTS === 'local' ? localCloudProjects(db) : googleCloudProjects();
}
