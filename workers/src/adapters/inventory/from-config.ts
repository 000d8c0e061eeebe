import type { Config } from '@cc/shared/config.ts';
import type { Pool } from '@cc/shared/db/pool.ts';
import type { InventorySource } from '@cc/shared/ports/inventory.ts';
import { realCloudProjects } from '@cc/shared/admin/cloud-projects-real.ts';
import { localInventorySource } from './local.ts';
import { dbScanCache, realInventorySource } from './real.ts';
import type { GoogleAuthClient } from './google.ts';

const SCOPES = ['https://www.googleapis.com/auth/cloud-platform'];

/**
 * The inventory source the configuration names (INVENTORY=local|real). Real reads as each customer's service
 * account: the provider's application default credentials impersonate it (the provider needs
 * roles/iam.serviceAccountTokenCreator on it), as the granted-projects screen does. Loaded only in real mode.
 */
export async function inventorySourceFromConfig(config: Config, pool: Pool): Promise<InventorySource> {
  if (config.INVENTORY === 'local') return localInventorySource(pool);
  const { GoogleAuth, Impersonated } = await import('google-auth-library');
  const auth = new GoogleAuth({ scopes: SCOPES });
  const sourceClient = await auth.getClient();
  return realInventorySource({
    projects: realCloudProjects({
      sourceToken: async () => {
        const token = await auth.getAccessToken();
        if (!token) throw new Error('no Google access token from application default credentials');
        return token;
      },
    }),
    // google-gax pins its own google-auth-library minor: the same class in another copy, so the types differ, not the shape.
    authFor: (email) => new Impersonated({ sourceClient, targetPrincipal: email, targetScopes: SCOPES, lifetime: 3600 }) as unknown as GoogleAuthClient,
    cache: dbScanCache(pool),
  });
}
