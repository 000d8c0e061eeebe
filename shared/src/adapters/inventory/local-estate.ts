/**
 * The local inventory source's estate: a deterministic function of the customer id and its GCP projects (ids and
 * names as in its billing data). Organisation → folder (by environment) → project → network, subnetworks,
 * instances with their disks, an unattached disk now and then, buckets, BigQuery datasets and service accounts,
 * in the exact shapes Cloud Asset Inventory answers; plus the recommendations Recommender would make on them.
 * Same input, same output: every choice comes from a hash of the names, never from the clock or Math.random.
 */
import { createHash } from 'node:crypto';
import type { GcpProject } from '../../ports/cloud-projects.ts';
import type { InventoryAsset, Recommendation } from '../../ports/inventory.ts';

const CRM = '//cloudresourcemanager.googleapis.com/';
const COMPUTE = 'https://www.googleapis.com/compute/v1/';
const REGIONS = ['europe-west1', 'europe-west4', 'us-central1', 'us-east1'];
/** Monthly on-demand list price in micros of the currency, close to GCP's (us-central1, 730 h). */
const MACHINES: Record<string, bigint> = {
  'e2-small': 12_230_000n,
  'e2-medium': 24_460_000n,
  'e2-standard-4': 97_840_000n,
  'n2-standard-2': 70_900_000n,
  'n2-standard-4': 141_800_000n,
  'n2-standard-8': 283_600_000n,
};
const SMALLER: Record<string, string> = { 'e2-standard-4': 'e2-medium', 'n2-standard-2': 'e2-standard-4', 'n2-standard-4': 'n2-standard-2', 'n2-standard-8': 'n2-standard-4' };
/** pd-balanced, per GB-month, in micros. */
const DISK_GB_MICROS = 100_000n;
const THIRTY_DAYS = '2592000s';
/** A fixed refresh time: the estate must not change with the clock. */
const REFRESHED = '2026-01-05T06:00:00Z';

function digest(...parts: string[]): Buffer {
  return createHash('sha256').update(parts.join('\u0000')).digest();
}

/** A decimal number of `digits` digits derived from the parts (project and folder numbers). */
function number(digits: number, ...parts: string[]): string {
  const n = digest(...parts).readBigUInt64BE(0) % 10n ** BigInt(digits - 1);
  return (10n ** BigInt(digits - 1) + n).toString();
}

/** A deterministic stream of choices in [0, 1) for one name. */
function chooser(...parts: string[]) {
  let counter = 0;
  const next = () => digest(...parts, String(counter++)).readUInt32BE(0) / 2 ** 32;
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!,
  };
}

const micros = (m: bigint) => {
  const sign = m < 0n ? '-' : '';
  const abs = m < 0n ? -m : m;
  return `${sign}${abs / 1_000_000n}.${String(abs % 1_000_000n).padStart(6, '0')}`.replace(/\.?0+$/, '');
};

function folderOf(p: GcpProject): string {
  const text = `${p.project_id} ${p.project_name}`.toLowerCase();
  if (/prod|prd|live/.test(text)) return 'Production';
  if (/dev|test|qa|stag|sandbox|uat/.test(text)) return 'Non-production';
  return 'Shared';
}

export interface LocalEstate {
  assets: InventoryAsset[];
  recommendations: Recommendation[];
}

export function localEstate(customerId: string, projects: GcpProject[], currency: string): LocalEstate {
  const org = number(12, 'org', customerId);
  const assets: InventoryAsset[] = [];
  const recommendations: Recommendation[] = [];
  const folders = new Set<string>();

  for (const p of [...projects].sort((a, b) => (a.project_id < b.project_id ? -1 : 1))) {
    const c = chooser(customerId, p.project_id);
    const folderName = folderOf(p);
    const folder = number(12, 'folder', customerId, folderName);
    folders.add(`${folder}\u0000${folderName}`);
    const projectNumber = number(12, 'project', p.project_id);
    const ancestors = [`projects/${projectNumber}`, `folders/${folder}`, `organizations/${org}`];
    const projectName = `${CRM}projects/${projectNumber}`;
    const base = { project_id: p.project_id, ancestors, update_time: REFRESHED };
    const add = (asset_name: string, asset_type: string, location: string | null, data: Record<string, unknown>) =>
      assets.push({ ...base, asset_name, asset_type, location, display_name: asset_name.split('/').at(-1)!, parent: projectName, data });
    const cpath = `projects/${p.project_id}`;

    assets.push({
      ...base,
      asset_name: projectName,
      asset_type: 'cloudresourcemanager.googleapis.com/Project',
      location: 'global',
      display_name: p.project_id,
      parent: `${CRM}folders/${folder}`,
      data: { projectNumber, projectId: p.project_id, name: p.project_name, lifecycleState: 'ACTIVE', parent: { type: 'folder', id: folder } },
    });

    const network = `${cpath}/global/networks/vpc-main`;
    add(`//compute.googleapis.com/${network}`, 'compute.googleapis.com/Network', 'global', { name: 'vpc-main', autoCreateSubnetworks: false, selfLink: COMPUTE + network });
    const regions = [...new Set([c.pick(REGIONS), c.pick(REGIONS)])].sort();
    for (const region of regions) {
      const subnet = `${cpath}/regions/${region}/subnetworks/${region}-subnet`;
      add(`//compute.googleapis.com/${subnet}`, 'compute.googleapis.com/Subnetwork', region, {
        name: `${region}-subnet`,
        network: COMPUTE + network,
        ipCidrRange: `10.${c.int(0, 255)}.0.0/20`,
        region: COMPUTE + `${cpath}/regions/${region}`,
        selfLink: COMPUTE + subnet,
      });
    }

    const defaultSa = `${projectNumber}-compute@developer.gserviceaccount.com`;
    const appSa = `app-runtime@${p.project_id}.iam.gserviceaccount.com`;
    const instances = c.int(1, 4);
    for (let i = 1; i <= instances; i++) {
      const region = c.pick(regions);
      const zone = `${region}-${c.pick(['b', 'c', 'd'])}`;
      const name = `${p.project_id.replace(/[^a-z0-9-]/g, '')}-vm-${i}`.slice(-40).replace(/^-+/, '');
      const machineType = c.pick(Object.keys(MACHINES));
      const disks = [{ boot: true, deviceName: `${name}-boot`, source: COMPUTE + `${cpath}/zones/${zone}/disks/${name}-boot` }];
      const bootSize = c.pick([10, 20, 50]);
      add(`//compute.googleapis.com/${cpath}/zones/${zone}/disks/${name}-boot`, 'compute.googleapis.com/Disk', zone, {
        name: `${name}-boot`, sizeGb: String(bootSize), type: COMPUTE + `${cpath}/zones/${zone}/diskTypes/pd-balanced`, users: [COMPUTE + `${cpath}/zones/${zone}/instances/${name}`],
      });
      if (c.next() < 0.4) {
        const dataDisk = `${cpath}/zones/${zone}/disks/${name}-data`;
        disks.push({ boot: false, deviceName: `${name}-data`, source: COMPUTE + dataDisk });
        add(`//compute.googleapis.com/${dataDisk}`, 'compute.googleapis.com/Disk', zone, {
          name: `${name}-data`, sizeGb: String(c.pick([100, 250, 500])), type: COMPUTE + `${cpath}/zones/${zone}/diskTypes/pd-balanced`, users: [COMPUTE + `${cpath}/zones/${zone}/instances/${name}`],
        });
      }
      const instance = `//compute.googleapis.com/${cpath}/zones/${zone}/instances/${name}`;
      add(instance, 'compute.googleapis.com/Instance', zone, {
        name,
        machineType: COMPUTE + `${cpath}/zones/${zone}/machineTypes/${machineType}`,
        status: 'RUNNING',
        disks,
        networkInterfaces: [{ subnetwork: COMPUTE + `${cpath}/regions/${region}/subnetworks/${region}-subnet`, network: COMPUTE + network, ...(c.next() < 0.3 ? { accessConfigs: [{ type: 'ONE_TO_ONE_NAT', name: 'External NAT' }] } : {}) }],
        serviceAccounts: [{ email: c.next() < 0.5 ? defaultSa : appSa, scopes: ['https://www.googleapis.com/auth/cloud-platform'] }],
      });

      const roll = c.next();
      const price = MACHINES[machineType]!;
      const smaller = SMALLER[machineType];
      if (roll < 0.25) {
        recommendations.push(rec(projectNumber, p.project_id, zone, 'google.compute.instance.IdleResourceRecommender', 'STOP_VM', instance, {
          description: `Save cost by stopping Idle VM '${name}'.`, cost: -price, priority: 'P2',
          operation: { action: 'test', resourceType: 'compute.googleapis.com/Instance', resource: instance, path: '/status', value: 'RUNNING' },
        }, currency));
      } else if (roll < 0.55 && smaller) {
        recommendations.push(rec(projectNumber, p.project_id, zone, 'google.compute.instance.MachineTypeRecommender', 'CHANGE_MACHINE_TYPE', instance, {
          description: `Save cost by changing machine type from ${machineType} to ${smaller}.`, cost: MACHINES[smaller]! - price, priority: 'P3',
          operation: { action: 'replace', resourceType: 'compute.googleapis.com/Instance', resource: instance, path: '/machineType', value: COMPUTE + `${cpath}/zones/${zone}/machineTypes/${smaller}` },
        }, currency));
      }
    }

    if (c.next() < 0.5) {
      const zone = `${regions[0]}-b`;
      const sizeGb = c.pick([50, 200, 500]);
      const disk = `//compute.googleapis.com/${cpath}/zones/${zone}/disks/orphaned-${c.int(100, 999)}`;
      add(disk, 'compute.googleapis.com/Disk', zone, { name: disk.split('/').at(-1), sizeGb: String(sizeGb), type: COMPUTE + `${cpath}/zones/${zone}/diskTypes/pd-balanced` });
      recommendations.push(rec(projectNumber, p.project_id, zone, 'google.compute.disk.IdleResourceRecommender', 'SNAPSHOT_AND_DELETE_DISK', disk, {
        description: `Save cost by snapshotting and then deleting idle persistent disk '${disk.split('/').at(-1)}'.`, cost: -BigInt(sizeGb) * DISK_GB_MICROS, priority: 'P4',
        operation: { action: 'remove', resourceType: 'compute.googleapis.com/Disk', resource: disk, path: '/' },
      }, currency));
    }

    const multiRegion = regions[0]!.startsWith('europe') ? 'EU' : 'US';
    for (const suffix of ['assets', 'backups', 'logs'].slice(0, c.int(1, 3))) {
      const bucket = `${p.project_id}-${suffix}`;
      add(`//storage.googleapis.com/${bucket}`, 'storage.googleapis.com/Bucket', multiRegion, {
        name: bucket, location: multiRegion, storageClass: suffix === 'backups' ? 'NEARLINE' : 'STANDARD', iamConfiguration: { uniformBucketLevelAccess: { enabled: c.next() < 0.7 } },
      });
    }
    for (const ds of ['analytics', 'staging'].slice(0, c.int(0, 2))) {
      add(`//bigquery.googleapis.com/${cpath}/datasets/${ds}`, 'bigquery.googleapis.com/Dataset', multiRegion, {
        datasetReference: { projectId: p.project_id, datasetId: ds }, location: multiRegion, access: [{ role: 'OWNER', specialGroup: 'projectOwners' }],
      });
    }
    for (const email of [defaultSa, appSa]) {
      const uniqueId = number(21, 'sa', email);
      add(`//iam.googleapis.com/${cpath}/serviceAccounts/${uniqueId}`, 'iam.googleapis.com/ServiceAccount', 'global', { email, uniqueId, projectId: p.project_id, displayName: email.split('@')[0] });
    }
    if (c.next() < 0.6) {
      recommendations.push(rec(projectNumber, p.project_id, 'global', 'google.iam.policy.Recommender', 'REPLACE_ROLE', projectName, {
        description: `Replace the current role with a smaller role to cover the permissions needed.`, cost: null, priority: 'P2', category: 'SECURITY',
        operation: { action: 'remove', resourceType: 'cloudresourcemanager.googleapis.com/Project', resource: projectName, path: '/iamPolicy/bindings/*/members/*', pathFilters: { '/iamPolicy/bindings/*/role': 'roles/editor', '/iamPolicy/bindings/*/members/*': `serviceAccount:${appSa}` } },
      }, currency));
    }
  }

  for (const entry of [...folders].sort()) {
    const [folder, displayName] = entry.split('\u0000') as [string, string];
    const name = `${CRM}folders/${folder}`;
    assets.push({
      asset_name: name, asset_type: 'cloudresourcemanager.googleapis.com/Folder', project_id: '', location: 'global', display_name: displayName,
      parent: `${CRM}organizations/${org}`, ancestors: [`folders/${folder}`, `organizations/${org}`], update_time: REFRESHED, data: { name: `folders/${folder}`, displayName, parent: `organizations/${org}`, lifecycleState: 'ACTIVE' },
    });
  }
  if (projects.length) {
    assets.push({
      asset_name: `${CRM}organizations/${org}`, asset_type: 'cloudresourcemanager.googleapis.com/Organization', project_id: '', location: 'global', display_name: `${customerId}.example`,
      parent: null, ancestors: [`organizations/${org}`], update_time: REFRESHED, data: { name: `organizations/${org}`, displayName: `${customerId}.example`, lifecycleState: 'ACTIVE' },
    });
  }
  return { assets, recommendations };
}

function rec(
  projectNumber: string, projectId: string, location: string, recommender: string, subtype: string, target: string,
  o: { description: string; cost: bigint | null; priority: string; category?: 'SECURITY'; operation: Record<string, unknown> },
  currency: string,
): Recommendation {
  const id = digest('rec', projectId, recommender, target).toString('hex').slice(0, 32);
  return {
    name: `projects/${projectNumber}/locations/${location}/recommenders/${recommender}/recommendations/${id}`,
    etag: '', state: 'ACTIVE', recommender, recommender_subtype: subtype, primary_impact_category: o.category ?? 'COST',
    cost: o.cost === null ? null : micros(o.cost), currency: o.cost === null ? null : currency, cost_duration: o.cost === null ? null : THIRTY_DAYS,
    description: o.description, priority: o.priority, target_resources: [target], location, project_id: projectId, last_refresh_time: REFRESHED,
    content: { operationGroups: [{ operations: [o.operation] }] },
  };
}
