/**
 * An in-process fake of Cloud Asset Inventory v1 `assets.list` (GET /v1/{parent}/assets), speaking its REST wire
 * format: `assetTypes` repeated, `contentType` (RESOURCE = 1 when enums are numeric), `pageSize` ≤ 1000, and
 * pages that may be partial or empty before the last one (only an absent `nextPageToken` ends a listing).
 * https://cloud.google.com/asset-inventory/docs/reference/rest/v1/assets/list
 */
import { googleError, startGoogleFake, type GoogleFake, type Route } from './google-rest.ts';

export interface FakeAsset {
  name: string;
  assetType: string;
  ancestors: string[];
  updateTime: string;
  resource: { version: string; discoveryName: string; parent: string; location?: string; data: Record<string, unknown> };
}

export interface FakeCloudAsset extends GoogleFake {
  /** Assets per project id (the `projects/{id}` parent). */
  assets: Map<string, FakeAsset[]>;
  /** Page sizes to answer per project, e.g. `[2, 0, 1]`: a partial, an empty, then the rest. */
  pagePlan: Map<string, number[]>;
}

const READ_TIME = '2026-01-05T06:00:00.000000Z';

/** Builds an asset as the API would answer it, under the given project number and ancestry. */
export function fakeAsset(o: { projectId: string; projectNumber: string; ancestors: string[]; type: string; path: string; location?: string; data: Record<string, unknown> }): FakeAsset {
  const [service, kind] = o.type.split('/') as [string, string];
  return {
    name: `//${service}/${o.path}`,
    assetType: o.type,
    ancestors: o.ancestors,
    updateTime: '2026-01-04T10:11:12.345Z',
    resource: {
      version: 'v1',
      discoveryName: kind,
      parent: `//cloudresourcemanager.googleapis.com/projects/${o.projectNumber}`,
      ...(o.location ? { location: o.location } : {}),
      data: o.data,
    },
  };
}

export async function startFakeCloudAsset(opts: { token?: string } = {}): Promise<FakeCloudAsset> {
  const assets = new Map<string, FakeAsset[]>();
  const pagePlan = new Map<string, number[]>();

  const list: Route = (req, send) => {
    const m = /^\/v1\/projects\/([^/]+)\/assets$/.exec(req.path);
    if (req.method !== 'GET' || !m) return false;
    const projectId = m[1]!;
    const all = assets.get(projectId);
    if (!all) {
      send(403, googleError(403, `The caller does not have permission on projects/${projectId}`));
      return true;
    }
    const contentType = req.query.get('contentType');
    if (contentType !== '1' && contentType !== 'RESOURCE') {
      send(400, googleError(400, `fake: contentType must be RESOURCE, got ${contentType}`));
      return true;
    }
    const pageSize = Number(req.query.get('pageSize') ?? 100);
    if (!(pageSize >= 1 && pageSize <= 1000)) {
      send(400, googleError(400, 'Invalid page size: must be between 1 and 1000.'));
      return true;
    }
    const types = req.query.getAll('assetTypes');
    const wanted = types.length ? all.filter((a) => types.includes(a.assetType)) : all;
    // The token carries the page index and the offset reached: opaque to the client.
    const token = req.query.get('pageToken') || '';
    const [pageIndex, offset] = token ? token.split('.').map(Number) as [number, number] : [0, 0];
    if (token && (Number.isNaN(pageIndex) || Number.isNaN(offset))) {
      send(400, googleError(400, 'Invalid page token.'));
      return true;
    }
    const planned = pagePlan.get(projectId)?.[pageIndex];
    const size = Math.min(planned ?? pageSize, pageSize);
    const page = wanted.slice(offset, offset + size);
    const next = offset + page.length;
    const more = next < wanted.length || (pagePlan.get(projectId)?.length ?? 0) > pageIndex + 1;
    // proto3 JSON leaves out empty repeated fields: an empty page has no `assets` key at all.
    send(200, { readTime: READ_TIME, ...(page.length ? { assets: page } : {}), ...(more ? { nextPageToken: `${pageIndex + 1}.${next}` } : {}) });
    return true;
  };

  const fake = await startGoogleFake('cloudasset.googleapis.com', [list], { ...opts, specs: ['cloudasset.v1.json'] });
  return Object.assign(fake, { assets, pagePlan });
}
