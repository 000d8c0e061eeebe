import type { FastifyInstance } from 'fastify';
import type { CloudProjects } from '@cc/shared/ports/cloud-projects.ts';
import { localCloudProjects } from '@cc/shared/admin/cloud-projects-local.ts';
import { realCloudProjects } from '@cc/shared/admin/cloud-projects-real.ts';

/** Picks the granted-projects adapter (CLOUD_PROJECTS=local|real). */
export function cloudProjectsFor(app: FastifyInstance): CloudProjects {
  if (app.config.CLOUD_PROJECTS === 'local') return localCloudProjects(app.pg);
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
