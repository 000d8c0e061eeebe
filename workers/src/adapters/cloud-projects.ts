import type { Config } from '@cc/shared/config.ts';
import type { Queryable } from '@cc/shared/db/pool.ts';
import type { CloudProjects } from '@cc/shared/ports/cloud-projects.ts';
import { localCloudProjects } from '@cc/shared/admin/cloud-projects-local.ts';
import { realCloudProjects } from '@cc/shared/admin/cloud-projects-real.ts';

/** The granted-projects adapter the configuration names (CLOUD_PROJECTS=local|real); the worker's twin of api/src/routes/customers/cloud-projects.ts. */
export function cloudProjectsFromConfig(config: Pick<Config, 'CLOUD_PROJECTS'>, db: Queryable): CloudProjects {
  if (config.CLOUD_PROJECTS === 'local') return localCloudProjects(db);
  let auth: import('google-auth-library').GoogleAuth | null = null;
  return realCloudProjects({
    // Application default credentials of the provider; loaded only in real mode.
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
