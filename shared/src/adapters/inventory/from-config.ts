import type { Config } from '../../config.ts';
import type { Pool } from '../../db/pool.ts';
import type { InventorySource } from '../../ports/inventory.ts';
import { googleCloudProjects } from '../cloud-projects/from-config.ts';
import { localInventorySource } from './local.ts';
import type { GoogleAuthClient } from './google.ts';

const SCOPES = ['https://www.googleapis.com/auth/cloud-platform'];

/**
 * The inventory source the configuration names (INVENTORY=local|real). Real reads as each customer's service
 * account: the provider's application default credentials impersonate it (the provider needs
 * roles/iam.serviceAccountTokenCreator on it), as the granted-projects screen does. Loaded only in real mode.
 */
export async function inventorySourceFromConfig(config: Config, pool: Pool): Promise<InventorySource> {
  if (config.INVENTORY === 'local') return localInventorySource(pool);
  const [{ GoogleAuth, Impersonated }, { dbScanCache, realInventorySource }] = await Promise.all([import('google-auth-library'), import('./real.ts')]);
  const auth = new GoogleAuth({ scopes: SCOPES });
  const sourceClient = await auth.getClient();
  return realInventorySource({
    projects: googleCloudProjects(),
    // google-gax pins its own google-auth-library minor: the same class in another copy, so the types differ, not the shape.
    authFor: (email) => new Impersonated({ sourceClient, targetPrincipal: email, targetScopes: SCOPES, lifetime: 3600 }) as unknown as GoogleAuthClient,
    cache: dbScanCache(pool),
  });
}
