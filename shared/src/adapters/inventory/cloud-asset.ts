/**
 * Cloud Asset Inventory `assets.list` (v1) per project with the official client, as the customer's service account.
 * `listAssets` rather than `searchAllResources`: it answers `ancestors`, `resource.parent` and `resource.data`, from
 * which the graph's edges are built (relationship assets need Security Command Center Premium).
 * Docs: https://cloud.google.com/asset-inventory/docs/reference/rest/v1/assets/list
 */
import { AssetServiceClient } from '@google-cloud/asset';
import type { InventoryAsset } from '../../ports/inventory.ts';
import { allPages, clientOptions, structToJson, timestampToIso, withBackoff, type Backoff, type GoogleAuthClient, type GoogleEndpoint } from './google.ts';

/** The asset types the inventory shows (spec 000 §2 /inventory; the estate the local source builds). */
export const INVENTORY_ASSET_TYPES = [
  'cloudresourcemanager.googleapis.com/Project',
  'compute.googleapis.com/Instance',
  'compute.googleapis.com/Disk',
  'compute.googleapis.com/Network',
  'compute.googleapis.com/Subnetwork',
  'storage.googleapis.com/Bucket',
  'bigquery.googleapis.com/Dataset',
  'iam.googleapis.com/ServiceAccount',
];

/** assets.list allows up to 1000 per page. */
export const ASSET_PAGE_SIZE = 1000;
/** 1,000 pages of 1,000: far beyond any customer; past it the upstream is looping. */
const MAX_PAGES = 1000;

interface RawAsset {
  name?: string | null;
  assetType?: string | null;
  ancestors?: string[] | null;
  updateTime?: unknown;
  resource?: { parent?: string | null; location?: string | null; data?: unknown } | null;
}

function toAsset(projectId: string, a: RawAsset): InventoryAsset {
  const name = a.name ?? '';
  const data = structToJson(a.resource?.data);
  const shortName = a.assetType === 'cloudresourcemanager.googleapis.com/Project' ? data.projectId : data.name;
  return {
    asset_name: name,
    asset_type: a.assetType ?? '',
    project_id: projectId,
    location: a.resource?.location || null,
    display_name: typeof shortName === 'string' && shortName ? shortName : (name.split('/').at(-1) ?? name),
    parent: a.resource?.parent || null,
    ancestors: a.ancestors ?? [],
    update_time: timestampToIso(a.updateTime),
    data,
  };
}

export interface CloudAssetReader {
  listProjectAssets(projectId: string): Promise<InventoryAsset[]>;
  close(): Promise<void>;
}

export function cloudAssetReader(authClient: GoogleAuthClient, opts: { endpoint?: GoogleEndpoint; backoff: Backoff; pageSize?: number }): CloudAssetReader {
  const client = new AssetServiceClient(clientOptions(authClient, opts.endpoint));
  return {
    async listProjectAssets(projectId) {
      const what = `Cloud Asset assets.list projects/${projectId}`;
      return allPages(what, MAX_PAGES, async (pageToken) => {
        const [assets, , raw] = await withBackoff(what, opts.backoff, () =>
          client.listAssets(
            { parent: `projects/${projectId}`, assetTypes: INVENTORY_ASSET_TYPES, contentType: 'RESOURCE', pageSize: opts.pageSize ?? ASSET_PAGE_SIZE, pageToken },
            { autoPaginate: false },
          ),
        );
        return { items: (assets as RawAsset[]).map((a) => toAsset(projectId, a)), nextPageToken: raw?.nextPageToken };
      });
    },
    close: () => client.close(),
  };
}
