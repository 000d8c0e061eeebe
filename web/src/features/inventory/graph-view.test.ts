import t from 'tap';
import { DAG_MODES, findNode } from './graph-view.ts';

const node = (asset_name: string) => ({ id: `//x/${asset_name}`, asset_name, level: 1, module: 'compute', img: 'compute-instance' });

t.test('the six orientations of spec 001 §2.10, in its order', async (t) => {
  t.same(DAG_MODES.map((m) => m.label), ['Radial In', 'Bu', 'Lr', 'Rl', 'Radial Out', 'Td']);
});

t.test('search: exact name first, then the first containing the text', async (t) => {
  const nodes = [node('web-10'), node('web-1'), node('db-web')];
  t.equal(findNode(nodes, 'WEB-1')?.asset_name, 'web-1');
  t.equal(findNode(nodes, 'web')?.asset_name, 'db-web');
  t.equal(findNode(nodes, ' '), null);
  t.equal(findNode(nodes, 'nothing'), null);
});
