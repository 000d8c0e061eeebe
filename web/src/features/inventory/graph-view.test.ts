import t from 'tap';
import { DAG_MODES, findNode, LabelPlacer, prominentNodes } from './graph-view.ts';

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

t.test('names always shown: every node of a small graph, the most linked of a large one', async (t) => {
  const org = { ...node('org'), level: 0 };
  const projects = ['p1', 'p2'].map(node);
  const leaves = Array.from({ length: 6 }, (_, i) => ({ ...node(`vm-${i}`), level: 2 }));
  const links = [...projects.map((p) => ({ source: org.id, target: p.id })), ...leaves.map((l, i) => ({ source: projects[i % 2]!.id, target: l.id }))];
  const graph = { nodes: [org, ...projects, ...leaves], links };
  t.equal(prominentNodes(graph, 60).size, 9, 'a small graph: all');
  t.same([...prominentNodes(graph, 5, 3)].sort(), [org.id, ...projects.map((p) => p.id)].sort(), 'a large one: the hubs');
});

t.test('a name is placed only where no other name is', async (t) => {
  const placer = new LabelPlacer();
  t.ok(placer.place({ left: 0, top: 0, right: 10, bottom: 2 }));
  t.notOk(placer.place({ left: 9, top: 1, right: 20, bottom: 3 }), 'overlapping: left out');
  t.ok(placer.place({ left: 10, top: 0, right: 20, bottom: 2 }), 'touching is fine');
  placer.reset();
  t.ok(placer.place({ left: 9, top: 1, right: 20, bottom: 3 }), 'a new frame starts empty');
});
