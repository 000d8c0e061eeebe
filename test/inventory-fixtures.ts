/** Shared set-up of the inventory tests: billed projects, and the real source wired to the Cloud Asset and Recommender fakes. */
import { OAuth2Client } from 'google-auth-library';
import type { Pool } from '@cc/shared/db/pool.ts';
import { localCloudProjects } from '@cc/shared/adapters/cloud-projects/local.ts';
import { dbScanCache, realInventorySource } from '@cc/shared/adapters/inventory/real.ts';
import { fakeAsset, startFakeCloudAsset, type FakeAsset } from './fakes/cloud-asset-server.ts';
import { fakeRecommendation, startFakeRecommender } from './fakes/recommender-server.ts';

export const ACME = { customerId: 'acme-corp', serviceAccountEmail: 'commandcenter@acme-corp-ops.iam.gserviceaccount.com', currency: 'EUR' };
const ACCOUNT = '01A2B3-C4D5E6-F7A8B9';

/** The customer's projects as its billing data shows them (what the local CloudProjects answers). */
export async function billProjects(pool: Pool, projects: [id: string, name: string][]): Promise<void> {
  for (const [id, name] of projects) {
    await pool.query(
      `INSERT INTO cost_daily (customer_id, billing_account_id, usage_date, provider, provider_name, project_id, project_name, service, cost, credits, currency)
       VALUES ('acme-corp', $1, '2026-01-02', 'gcp', 'Google Cloud', $2, $3, 'Compute Engine', 10, 0, 'EUR')`,
      [ACCOUNT, id, name],
    );
  }
}

const SHOP = { projectId: 'acme-shop-prod', projectNumber: '111', ancestors: ['projects/111', 'folders/40', 'organizations/9'] };
const LAB = { projectId: 'acme-lab-dev', projectNumber: '222', ancestors: ['projects/222', 'folders/41', 'organizations/9'] };
const C = 'https://www.googleapis.com/compute/v1/projects/acme-shop-prod';

export function shopAssets(): FakeAsset[] {
  return [
    fakeAsset({ ...SHOP, type: 'cloudresourcemanager.googleapis.com/Project', path: 'projects/111', location: 'global', data: { projectId: 'acme-shop-prod', projectNumber: '111', name: 'Webshop' } }),
    fakeAsset({ ...SHOP, type: 'compute.googleapis.com/Network', path: 'projects/acme-shop-prod/global/networks/default', location: 'global', data: { name: 'default', selfLink: `${C}/global/networks/default` } }),
    fakeAsset({ ...SHOP, type: 'compute.googleapis.com/Subnetwork', path: 'projects/acme-shop-prod/regions/europe-west1/subnetworks/default', location: 'europe-west1', data: { name: 'default', network: `${C}/global/networks/default` } }),
    fakeAsset({
      ...SHOP, type: 'compute.googleapis.com/Instance', path: 'projects/acme-shop-prod/zones/europe-west1-b/instances/web-1', location: 'europe-west1-b',
      data: { name: 'web-1', status: 'RUNNING', machineType: `${C}/zones/europe-west1-b/machineTypes/n2-standard-4`, disks: [{ boot: true, source: `${C}/zones/europe-west1-b/disks/web-1` }], networkInterfaces: [{ subnetwork: `${C}/regions/europe-west1/subnetworks/default` }] },
    }),
    fakeAsset({ ...SHOP, type: 'compute.googleapis.com/Disk', path: 'projects/acme-shop-prod/zones/europe-west1-b/disks/web-1', location: 'europe-west1-b', data: { name: 'web-1', sizeGb: '20' } }),
    fakeAsset({ ...SHOP, type: 'storage.googleapis.com/Bucket', path: 'acme-shop-assets', location: 'EU', data: { name: 'acme-shop-assets', iamConfiguration: { uniformBucketLevelAccess: { enabled: false } } } }),
  ];
}

export function labAssets(): FakeAsset[] {
  return [
    fakeAsset({ ...LAB, type: 'storage.googleapis.com/Bucket', path: 'acme-lab-scratch', location: 'US', data: { name: 'acme-lab-scratch', iamConfiguration: { uniformBucketLevelAccess: { enabled: true } } } }),
    fakeAsset({ ...LAB, type: 'bigquery.googleapis.com/Dataset', path: 'projects/acme-lab-dev/datasets/scratch', location: 'US', data: { datasetReference: { projectId: 'acme-lab-dev', datasetId: 'scratch' } } }),
  ];
}

export const MACHINE_TYPE_PARENT = 'projects/acme-shop-prod/locations/europe-west1-b/recommenders/google.compute.instance.MachineTypeRecommender';
export const IAM_PARENT = 'projects/acme-shop-prod/locations/global/recommenders/google.iam.policy.Recommender';

export async function realSetup(t: { teardown(fn: () => unknown): void }, pool: Pool) {
  await billProjects(pool, [['acme-shop-prod', 'Webshop'], ['acme-lab-dev', 'Lab']]);
  const asset = await startFakeCloudAsset();
  const recommender = await startFakeRecommender();
  t.teardown(() => asset.close());
  t.teardown(() => recommender.close());
  asset.assets.set('acme-shop-prod', shopAssets());
  asset.assets.set('acme-lab-dev', labAssets());
  recommender.recommendations.set(MACHINE_TYPE_PARENT, [
    fakeRecommendation(MACHINE_TYPE_PARENT, 'rs-1', {
      projectNumber: '111', description: 'Save cost by changing machine type from n2-standard-4 to n2-standard-2.', recommenderSubtype: 'CHANGE_MACHINE_TYPE',
      priority: 'P2', category: 'COST', cost: { currencyCode: 'EUR', units: '-70', nanos: -900000000 },
      targetResources: ['//compute.googleapis.com/projects/acme-shop-prod/zones/europe-west1-b/instances/web-1'],
    }),
  ]);
  recommender.recommendations.set(IAM_PARENT, [
    fakeRecommendation(IAM_PARENT, 'iam-1', {
      projectNumber: '111', description: 'Replace the current role with a smaller role to cover the permissions needed.', recommenderSubtype: 'REPLACE_ROLE',
      priority: 'P1', category: 'SECURITY', targetResources: ['//cloudresourcemanager.googleapis.com/projects/111'],
    }),
  ]);
  const auth = new OAuth2Client();
  auth.setCredentials({ access_token: 'fake-token', expiry_date: Date.now() + 3_600_000 });
  const sleeps: number[] = [];
  const source = realInventorySource({
    projects: localCloudProjects(pool),
    authFor: (email) => {
      if (email !== ACME.serviceAccountEmail) throw new Error(`credentials asked for ${email}`);
      return auth as never;
    },
    cache: dbScanCache(pool),
    assetEndpoint: asset.endpoint,
    recommenderEndpoint: recommender.endpoint,
    backoff: { retries: 3, baseMs: 1000, sleep: async (ms) => void sleeps.push(ms) },
  });
  return { asset, recommender, source, sleeps };
}
