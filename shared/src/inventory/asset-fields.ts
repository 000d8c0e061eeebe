/**
 * Fields of an inventory item (spec 000 §3: asset_type, asset_name, project_id, region, violation_rule) that are
 * derived from the asset rather than read: the region of a location, and the first policy rule it breaks.
 */

/** `europe-west1-b` → `europe-west1`; regions, multi-regions (`EU`, `US`) stay; `global` and none → null. */
export function regionOf(location: string | null): string | null {
  if (!location || location === 'global') return null;
  const zone = /^([a-z]+-[a-z]+\d+)-[a-z]$/.exec(location);
  return zone ? zone[1]! : location;
}

interface RuleAsset {
  asset_type: string;
  data: Record<string, unknown>;
}

const list = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter((x) => x && typeof x === 'object') : []);
const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/**
 * The rules, in the order they are checked. The spec names the field but not the rules; these are the common
 * CIS Google Cloud benchmark findings the asset data itself shows (docs/decisions-inventory.md).
 */
export const VIOLATION_RULES: { id: string; applies: (a: RuleAsset) => boolean }[] = [
  {
    // CIS 4.9: instances should not have public IP addresses
    id: 'instance-public-ip',
    applies: (a) => a.asset_type === 'compute.googleapis.com/Instance' && list(a.data.networkInterfaces).some((n) => list(n.accessConfigs).length > 0),
  },
  {
    // CIS 4.1: instances should not run as the default Compute Engine service account
    id: 'instance-default-service-account',
    applies: (a) =>
      a.asset_type === 'compute.googleapis.com/Instance' && list(a.data.serviceAccounts).some((s) => String(s.email ?? '').endsWith('-compute@developer.gserviceaccount.com')),
  },
  {
    // CIS 5.2: buckets should have uniform bucket-level access enabled
    id: 'bucket-uniform-access-disabled',
    applies: (a) => a.asset_type === 'storage.googleapis.com/Bucket' && obj(obj(obj(a.data.iamConfiguration).uniformBucketLevelAccess)).enabled !== true,
  },
  {
    // CIS 7.1: datasets should not be readable by allUsers or allAuthenticatedUsers
    id: 'dataset-public-access',
    applies: (a) =>
      a.asset_type === 'bigquery.googleapis.com/Dataset' && list(a.data.access).some((e) => e.specialGroup === 'allAuthenticatedUsers' || e.iamMember === 'allUsers'),
  },
];

export function violationRule(asset: RuleAsset): string | null {
  return VIOLATION_RULES.find((r) => r.applies(asset))?.id ?? null;
}
