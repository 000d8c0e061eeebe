/**
 * Every way a worker or the `cc` CLI is started gives node the same V8 flags (infra/scripts/node-flags.ts: the heap
 * cap that keeps a worker under 512 MB RSS), and a worker started with them runs with that cap.
 */
import t from 'tap';
import { readFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { WORKER_NODE_FLAGS } from '../../infra/scripts/node-flags.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const flags = WORKER_NODE_FLAGS.join(' ');

t.test('package.json, start.sh and the systemd unit start the worker and cc with the flags', async (t) => {
  const scripts = (JSON.parse(await readFile(`${ROOT}package.json`, 'utf8')) as { scripts: Record<string, string> }).scripts;
  t.equal(scripts['start:worker'], `node ${flags} --import tsx workers/src/main.ts`);
  t.equal(scripts.cc, `node ${flags} --import tsx workers/src/billing-ingest/cli.ts`);
  const startSh = await readFile(`${ROOT}infra/scripts/start.sh`, 'utf8');
  t.match(startSh, `supervise worker node ${flags} --import tsx workers/src/main.ts`);
  const unit = await readFile(`${ROOT}infra/systemd/commandcenter-worker@.service`, 'utf8');
  t.match(unit, `ExecStart=/usr/bin/node ${flags} --import tsx workers/src/main.ts`);
  // no other line starts the worker without them
  for (const [name, text] of [['start.sh', startSh], ['the unit', unit]]) {
    const starts = text.split('\n').filter((l) => l.includes('workers/src/main.ts') && !l.trim().startsWith('#'));
    t.ok(starts.length > 0 && starts.every((l) => l.includes(flags)), `${name}: ${starts.join(' | ')}`);
  }
});

t.test('node started with the flags has the capped heap', async (t) => {
  const mb = Number(execFileSync(process.execPath, [...WORKER_NODE_FLAGS, '-p', 'require("v8").getHeapStatistics().heap_size_limit / 1048576']).toString());
  const cap = Number(/--max-old-space-size=(\d+)/.exec(flags)?.[1]);
  t.ok(cap > 0 && cap < 512, `old space capped below 512 MB: ${cap}`);
  // the limit is the old space plus the young generation's semi-spaces
  t.ok(mb >= cap && mb < 512, `heap limit ${mb} MB`);
});
