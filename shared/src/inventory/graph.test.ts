import t from 'tap';
import { buildInventoryGraph, computeAssetName, decodeNodeId, encodeNodeId, type GraphAsset } from './graph.ts';

const P = '//cloudresourcemanager.googleapis.com/projects/111';
const ANCESTORS = ['projects/111', 'folders/22', 'organizations/3'];
const C = '//compute.googleapis.com/projects/shop-prod';

const asset = (asset_name: string, asset_type: string, data: Record<string, unknown> = {}, extra: Partial<GraphAsset> = {}): GraphAsset => ({
  asset_name,
  asset_type,
  display_name: asset_name.split('/').at(-1)!,
  ancestors: ANCESTORS,
  parent: P,
  data,
  ...extra,
});

const ESTATE: GraphAsset[] = [
  asset(P, 'cloudresourcemanager.googleapis.com/Project', {}, { display_name: 'shop-prod', parent: '//cloudresourcemanager.googleapis.com/folders/22' }),
  asset(`${C}/zones/europe-west1-b/instances/web-1`, 'compute.googleapis.com/Instance', {
    disks: [{ source: 'https://www.googleapis.com/compute/v1/projects/shop-prod/zones/europe-west1-b/disks/web-1' }],
    networkInterfaces: [{ subnetwork: 'https://www.googleapis.com/compute/v1/projects/shop-prod/regions/europe-west1/subnetworks/default' }],
  }),
  asset(`${C}/zones/europe-west1-b/disks/web-1`, 'compute.googleapis.com/Disk'),
  asset(`${C}/regions/europe-west1/subnetworks/default`, 'compute.googleapis.com/Subnetwork', {
    network: 'https://www.googleapis.com/compute/v1/projects/shop-prod/global/networks/default',
  }),
  asset(`${C}/global/networks/default`, 'compute.googleapis.com/Network'),
  asset('//storage.googleapis.com/shop-assets', 'storage.googleapis.com/Bucket'),
];

t.test('hierarchy and compute references become levelled links', async (t) => {
  const g = buildInventoryGraph(ESTATE);
  const level = Object.fromEntries(g.nodes.map((n) => [n.id, n.level]));
  t.same(
    g.links.map((l) => `${l.source} -> ${l.target}`),
    [
      `//cloudresourcemanager.googleapis.com/folders/22 -> ${P}`,
      `//cloudresourcemanager.googleapis.com/organizations/3 -> //cloudresourcemanager.googleapis.com/folders/22`,
      `${P} -> ${C}/global/networks/default`,
      `${P} -> ${C}/regions/europe-west1/subnetworks/default`,
      `${P} -> ${C}/zones/europe-west1-b/disks/web-1`,
      `${P} -> ${C}/zones/europe-west1-b/instances/web-1`,
      `${P} -> //storage.googleapis.com/shop-assets`,
      `${C}/regions/europe-west1/subnetworks/default -> ${C}/global/networks/default`,
      `${C}/zones/europe-west1-b/instances/web-1 -> ${C}/regions/europe-west1/subnetworks/default`,
      `${C}/zones/europe-west1-b/instances/web-1 -> ${C}/zones/europe-west1-b/disks/web-1`,
    ],
  );
  t.same(level, {
    '//cloudresourcemanager.googleapis.com/organizations/3': 0,
    '//cloudresourcemanager.googleapis.com/folders/22': 1,
    [P]: 2,
    [`${C}/zones/europe-west1-b/instances/web-1`]: 3,
    '//storage.googleapis.com/shop-assets': 3,
    [`${C}/zones/europe-west1-b/disks/web-1`]: 4,
    [`${C}/regions/europe-west1/subnetworks/default`]: 4,
    [`${C}/global/networks/default`]: 5,
  });
  const folder = g.nodes.find((n) => n.id.endsWith('folders/22'));
  t.same(folder, { id: '//cloudresourcemanager.googleapis.com/folders/22', asset_name: 'folders/22', level: 1, module: 'cloudresourcemanager', img: 'cloudresourcemanager-folder' });
  const project = g.nodes.find((n) => n.id === P);
  t.same(project, { id: P, asset_name: 'shop-prod', level: 2, module: 'cloudresourcemanager', img: 'cloudresourcemanager-project' });
  t.equal(g.nodes.find((n) => n.id.endsWith('instances/web-1'))?.img, 'compute-instance');
});

t.test('references to assets outside the snapshot add no node', async (t) => {
  const g = buildInventoryGraph([
    asset(`${C}/zones/z/instances/lonely`, 'compute.googleapis.com/Instance', { disks: [{ source: 'https://www.googleapis.com/compute/v1/projects/other/zones/z/disks/d' }] }),
  ]);
  t.notOk(g.nodes.some((n) => n.id.includes('/disks/')));
});

t.test('a cycle in the input yields a finite acyclic graph', async (t) => {
  const a = '//example.googleapis.com/a';
  const b = '//example.googleapis.com/b';
  const c = '//example.googleapis.com/c';
  // a's parent is c, c's parent is b, b's parent is a; plus subnetwork ↔ instance style mutual references.
  const g = buildInventoryGraph([
    asset(a, 'example.googleapis.com/Thing', {}, { ancestors: [], parent: c }),
    asset(b, 'example.googleapis.com/Thing', {}, { ancestors: [], parent: a }),
    asset(c, 'example.googleapis.com/Thing', {}, { ancestors: [c, b, a], parent: b }),
  ]);
  t.equal(g.nodes.length, 3);
  t.equal(g.links.length, 2, 'exactly the cycle-closing edge is dropped');
  // Every link goes strictly down a level: the browser's DAG layout accepts it.
  const level = new Map(g.nodes.map((n) => [n.id, n.level]));
  for (const l of g.links) t.ok(level.get(l.target)! > level.get(l.source)!, `${l.source} -> ${l.target}`);
  t.same(buildInventoryGraph([...ESTATE].reverse()), buildInventoryGraph(ESTATE), 'same input in another order, same graph');
});

t.test('a self-parented asset and a long chain', async (t) => {
  const self = '//example.googleapis.com/self';
  const chain = Array.from({ length: 20_000 }, (_, i) => `folders/${i}`);
  const g = buildInventoryGraph([asset(self, 'example.googleapis.com/Thing', {}, { ancestors: chain, parent: self })]);
  t.equal(g.nodes.length, 20_001, 'deep chains do not overflow the stack');
  t.equal(g.nodes.find((n) => n.id === self)?.level, 20_000);
});

t.test('node id encoding both ways', async (t) => {
  const id = '//compute.googleapis.com/projects/p/zones/z/instances/vm-1';
  t.equal(encodeNodeId(id), '**compute.googleapis.com*projects*p*zones*z*instances*vm-1');
  t.equal(decodeNodeId(encodeNodeId(id)), id);
  t.equal(computeAssetName('https://compute.googleapis.com/compute/beta/projects/p/global/networks/n'), '//compute.googleapis.com/projects/p/global/networks/n');
  t.equal(computeAssetName(42), null);
});
