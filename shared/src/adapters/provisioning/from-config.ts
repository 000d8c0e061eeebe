import type { Config } from '../../config.ts';
import type { Pool } from '../../db/pool.ts';
import type { CloudProvisioning } from '../../ports/cloud-provisioning.ts';
import { localProvisioning } from './local.ts';

/**
 * The cloud the provisioning chain creates projects in (PROVISIONING=local|google). The Google clients (gRPC, ~340
 * modules) are imported only when chosen.
 */
export async function cloudProvisioningFromConfig(config: Config, pool: Pool): Promise<CloudProvisioning> {
  // google: the clients find application default credentials themselves, at their first call.
  if (config.PROVISIONING === 'google') return (await import('./real.ts')).googleProvisioning();
  return localProvisioning(pool, { operationDelayMs: config.PROVISIONING_LOCAL_DELAY_MS, grantedCpus: config.PROVISIONING_LOCAL_GRANTED_CPUS });
}

/** The chain's settings besides the cloud. */
export const provisioningSettingsFromConfig = (config: Config) => ({
  cpuRegion: config.PROVISIONING_CPU_REGION,
  pollIntervalMs: config.PROVISIONING_POLL_INTERVAL_MS,
  maxPolls: config.PROVISIONING_MAX_POLLS,
});
