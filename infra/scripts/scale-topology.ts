/**
 * The servers `make scale` (infra/scripts/scale.ts) and its short CI form run on this machine: a Redis Sentinel group
 * (one primary, one replica, three sentinels), a Redis Cluster (three primaries, three replicas), both with AOF, and a
 * PostgreSQL primary with a streaming replica made by pg_basebackup. Everything listens on 127.0.0.1 at free ports,
 * lives in a temporary directory and is stopped by `stop()`.
 *
 * Longer than 300 lines on purpose: a test harness, not product code — the three Redis shapes and the PostgreSQL pair
 * share the port, wait and kill helpers here, and each start function reads top to bottom as the servers' manual has it.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { chmod, chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function waitFor<T>(what: string, check: () => Promise<T>, ms = 30_000, every = 100): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check().catch(() => null);
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(every);
  }
}

/** One answer from the server at `port` (a fresh connection that gives up at once). */
async function ask(port: number, ...command: string[]): Promise<string> {
  const c = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  c.on('error', () => undefined);
  try {
    await c.connect();
    return String(await c.call(command[0]!, ...command.slice(1)));
  } finally {
    c.disconnect();
  }
}

interface Proc {
  port: number;
  proc: ChildProcess | null;
  args: string[];
}

function startRedis(p: Proc): void {
  p.proc = spawn('redis-server', p.args, { stdio: 'ignore' });
}

async function killProc(p: Proc, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  const proc = p.proc;
  p.proc = null;
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  proc.kill(signal);
  await once(proc, 'exit');
}

/** As production runs Redis (docs/operations.md): AOF, no RDB snapshots, no eviction. */
// A replica's full sync starts at once: by default a primary waits 5 s for more replicas before a diskless transfer.
const redisArgs = (port: number, dir: string) =>
  ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--appendfsync', 'everysec', '--maxmemory-policy', 'noeviction', '--repl-diskless-sync-delay', '0', '--dir', dir];

export interface SingleRedis {
  url: string;
  /** kill -9, then the same server started again on its AOF (one server has no failover). */
  killAndRestart(downMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** One Redis server with AOF, as `make start` runs it. */
export async function startSingleRedis(): Promise<SingleRedis> {
  const dir = await mkdtemp(join(tmpdir(), 'cc-redis-'));
  const port = await freePort();
  const p: Proc = { port, proc: null, args: redisArgs(port, dir) };
  const up = async () => {
    startRedis(p);
    await waitFor(`redis ${port}`, async () => (await ask(port, 'PING')) === 'PONG', 10_000, 50);
  };
  await up();
  return {
    url: `redis://127.0.0.1:${port}`,
    async killAndRestart(downMs = 1000) {
      await killProc(p);
      await sleep(downMs);
      await up();
    },
    async stop() {
      await killProc(p, 'SIGTERM');
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface SentinelGroup {
  /** REDIS_URL for it: redis+sentinel://…/<name>. */
  url: string;
  name: string;
  sentinels: string;
  /** Port of the server the sentinels name as primary now. */
  primaryPort(): Promise<number>;
  /** kill -9 of the current primary; resolves to its port. */
  killPrimary(): Promise<number>;
  /** Waits until the sentinels name a primary other than `port` and it accepts writes; resolves to its port. */
  failedOver(port: number, ms?: number): Promise<number>;
  /** Starts a killed server again (it rejoins as a replica of the new primary). */
  restart(port: number): Promise<void>;
  stop(): Promise<void>;
}

/** One primary, one replica, three sentinels (quorum 2) noticing a dead primary after one second. */
export async function startSentinelGroup(name = 'ccscale'): Promise<SentinelGroup> {
  const dir = await mkdtemp(join(tmpdir(), 'cc-sentinel-'));
  const servers: Proc[] = [];
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    const args = redisArgs(port, dir).concat(['--appendfilename', `aof-${port}.aof`, '--appenddirname', `aof-${port}`]);
    servers.push({ port, proc: null, args: i === 0 ? args : args.concat(['--replicaof', '127.0.0.1', String(servers[0]!.port)]) });
  }
  for (const s of servers) startRedis(s);
  for (const s of servers) await waitFor(`redis ${s.port}`, async () => (await ask(s.port, 'PING')) === 'PONG', 10_000, 50);
  await waitFor('the replica to sync', async () => /master_link_status:up/.test(await ask(servers[1]!.port, 'INFO', 'replication')), 10_000, 50);
  const sentinels: Proc[] = [];
  // Each sentinel is told the others (their ids and ports) and the replica in its file, as a sentinel writes them
  // there itself once it found them: no waiting for the hello messages, which come every two seconds.
  const ids = [0, 1, 2].map(() => randomBytes(20).toString('hex'));
  const ports: number[] = [];
  for (let i = 0; i < 3; i++) ports.push(await freePort());
  for (let i = 0; i < 3; i++) {
    const port = ports[i]!;
    const conf = join(dir, `sentinel-${port}.conf`);
    await writeFile(
      conf,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        `sentinel myid ${ids[i]}`,
        `sentinel monitor ${name} 127.0.0.1 ${servers[0]!.port} 2`,
        `sentinel down-after-milliseconds ${name} 1000`,
        `sentinel failover-timeout ${name} 5000`,
        `sentinel parallel-syncs ${name} 1`,
        `sentinel known-replica ${name} 127.0.0.1 ${servers[1]!.port}`,
        ...[0, 1, 2].filter((j) => j !== i).map((j) => `sentinel known-sentinel ${name} 127.0.0.1 ${ports[j]} ${ids[j]}`),
        '',
      ].join('\n'),
    );
    sentinels.push({ port, proc: null, args: [conf, '--sentinel'] });
  }
  for (const s of sentinels) startRedis(s);
  for (const s of sentinels) {
    await waitFor(`sentinel ${s.port}`, async () => /num-other-sentinels|flags/.test(await ask(s.port, 'SENTINEL', 'MASTER', name).catch(() => '')) || (await ask(s.port, 'PING')) === 'PONG', 10_000, 50);
  }
  // Each sentinel must know the other two before a failover can reach its quorum.
  await waitFor('the sentinels to know each other', async () => {
    for (const s of sentinels) {
      const c = new Redis({ host: '127.0.0.1', port: s.port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      c.on('error', () => undefined);
      try {
        await c.connect();
        const info = (await c.call('SENTINEL', 'SENTINELS', name)) as unknown[];
        if (info.length < 2) return false;
      } finally {
        c.disconnect();
      }
    }
    return true;
  }, 20_000, 200);
  const list = sentinels.map((s) => `127.0.0.1:${s.port}`).join(',');
  const primaryPort = async (): Promise<number> => {
    for (const s of sentinels) {
      const c = new Redis({ host: '127.0.0.1', port: s.port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      c.on('error', () => undefined);
      try {
        await c.connect();
        const [, port] = (await c.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', name)) as [string, string];
        return Number(port);
      } catch {
        // the next sentinel answers
      } finally {
        c.disconnect();
      }
    }
    throw new Error('no sentinel answered');
  };
  const byPort = (port: number) => servers.find((s) => s.port === port)!;
  return {
    url: `redis+sentinel://${list}/${name}`,
    name,
    sentinels: list,
    primaryPort,
    async killPrimary() {
      const port = await primaryPort();
      await killProc(byPort(port));
      return port;
    },
    async failedOver(old, ms = 30_000) {
      return waitFor('the sentinels to promote the replica', async () => {
        const port = await primaryPort();
        if (port === old) return null;
        return /role:master/.test(await ask(port, 'INFO', 'replication')) ? port : null;
      }, ms, 50);
    },
    async restart(port) {
      startRedis(byPort(port));
      await waitFor(`redis ${port}`, async () => (await ask(port, 'PING')) === 'PONG', 10_000, 50);
    },
    async stop() {
      for (const p of [...sentinels, ...servers]) await killProc(p, 'SIGTERM');
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface RedisCluster {
  /** REDIS_CLUSTER_NODES for it. */
  nodes: string;
  url: string;
  /** Ports of the current primaries. */
  primaries(): Promise<number[]>;
  /** kill -9 of the primary owning `key`'s slot; resolves to its port. */
  killPrimaryOf(key: string): Promise<number>;
  /** Waits until every slot is served again (a replica promoted); resolves once cluster_state is ok on a live node. */
  healed(deadPort: number, ms?: number): Promise<void>;
  restart(port: number): Promise<void>;
  stop(): Promise<void>;
}

/** Three primaries, three replicas (redis-cli --cluster create), a node counted dead after 1.5 s. */
export async function startRedisCluster(): Promise<RedisCluster> {
  const dir = await mkdtemp(join(tmpdir(), 'cc-cluster-'));
  const nodes: Proc[] = [];
  for (let i = 0; i < 6; i++) {
    const port = await freePort();
    const args = redisArgs(port, dir).concat([
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      `nodes-${port}.conf`,
      '--cluster-node-timeout',
      '1500',
      '--appendfilename',
      `aof-${port}.aof`,
      '--appenddirname',
      `aof-${port}`,
    ]);
    nodes.push({ port, proc: null, args });
  }
  for (const n of nodes) startRedis(n);
  for (const n of nodes) await waitFor(`redis ${n.port}`, async () => (await ask(n.port, 'PING')) === 'PONG', 10_000, 50);
  await run('redis-cli', ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', '1', '--cluster-yes']);
  await waitFor('cluster_state:ok everywhere', async () => {
    for (const n of nodes) if (!/cluster_state:ok/.test(await ask(n.port, 'CLUSTER', 'INFO'))) return false;
    // replicas attached too, so a killed primary has someone to promote
    const text = await ask(nodes[0]!.port, 'CLUSTER', 'NODES');
    return (text.match(/ slave /g) ?? []).length === 3;
  }, 30_000, 100);
  const list = nodes.map((n) => `127.0.0.1:${n.port}`).join(',');
  const alive = () => nodes.filter((n) => n.proc !== null);
  // CLUSTER NODES: `<id> <host:port@bus> <flags,…> <primary> <ping> <pong> <epoch> <link> <slot ranges…>`
  const primaryLines = async () =>
    (await ask(alive()[0]!.port, 'CLUSTER', 'NODES'))
      .split('\n')
      .map((l) => l.trim().split(' '))
      .filter((f) => f.length > 2 && f[2]!.split(',').includes('master') && !/fail/.test(f[2]!))
      .map((f) => ({ port: Number(/:(\d+)@/.exec(f[1]!)![1]), ranges: f.slice(8) }));
  const primaries = async (): Promise<number[]> => (await primaryLines()).map((p) => p.port);
  const byPort = (port: number) => nodes.find((n) => n.port === port)!;
  return {
    nodes: list,
    url: `redis+cluster://${list}`,
    primaries,
    async killPrimaryOf(key) {
      const slot = Number(await ask(alive()[0]!.port, 'CLUSTER', 'KEYSLOT', key));
      for (const { port, ranges } of await primaryLines()) {
        const owns = ranges.some((r) => {
          const [a, b] = r.split('-').map(Number);
          return slot >= a! && slot <= (b ?? a)!;
        });
        if (owns) {
          await killProc(byPort(port));
          return port;
        }
      }
      throw new Error(`no primary owns slot ${slot}`);
    },
    async healed(dead, ms = 30_000) {
      await waitFor('the cluster to promote a replica', async () => {
        const live = alive().filter((n) => n.port !== dead);
        for (const n of live) if (!/cluster_state:ok/.test(await ask(n.port, 'CLUSTER', 'INFO'))) return false;
        return !(await primaries()).includes(dead);
      }, ms, 50);
    },
    async restart(port) {
      startRedis(byPort(port));
      await waitFor(`redis ${port}`, async () => (await ask(port, 'PING')) === 'PONG', 10_000, 50);
    },
    async stop() {
      for (const n of nodes) await killProc(n, 'SIGTERM');
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface PostgresPair {
  /** Server URLs (database `postgres`) of the primary and its streaming replica. */
  primaryUrl: string;
  replicaUrl: string;
  /** How the primary was found: the local one (replication permitted) or a temporary one of its own. */
  primaryKind: 'local' | 'temporary';
  /** A database's URL on either server. */
  urlFor(server: 'primary' | 'replica', database: string): string;
  stop(): Promise<void>;
}

const PG_BIN = '/usr/lib/postgresql/15/bin';

/** Runs a PostgreSQL binary as the `postgres` user when we are root (initdb and postgres refuse root). */
async function asPostgres(bin: string, args: string[]): Promise<void> {
  const root = process.getuid?.() === 0;
  if (root) await run('runuser', ['-u', 'postgres', '--', join(PG_BIN, bin), ...args]);
  else await run(join(PG_BIN, bin), args);
}

async function chownToPostgres(path: string): Promise<void> {
  if (process.getuid?.() !== 0) return;
  const { stdout } = await run('id', ['-u', 'postgres']);
  const { stdout: gid } = await run('id', ['-g', 'postgres']);
  await chown(path, Number(stdout.trim()), Number(gid.trim()));
}

/** Whether the server at `url` lets a replication connection in from 127.0.0.1 (wal_level, max_wal_senders, pg_hba). */
async function replicationPermitted(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    const { rows } = await c.query<{ wal: string; senders: string; rules: number }>(
      `SELECT current_setting('wal_level') AS wal, current_setting('max_wal_senders') AS senders,
              (SELECT count(*)::int FROM pg_hba_file_rules WHERE 'replication' = ANY(database) AND error IS NULL) AS rules`,
    );
    const r = rows[0]!;
    return r.wal !== 'minimal' && Number(r.senders) > 0 && r.rules > 0;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

/**
 * A primary and a streaming replica (pg_basebackup -R into a temporary folder, its own port). The local server is
 * used as primary when it permits replication; it usually does not (pg_hba has no `replication` line), and then a
 * primary of our own is made with initdb in a temporary folder.
 */
export async function startPostgresPair(localUrl = 'postgres://postgres@127.0.0.1:5432/postgres'): Promise<PostgresPair> {
  const dir = await mkdtemp(join(tmpdir(), 'cc-pg-'));
  await chmod(dir, 0o755);
  await chownToPostgres(dir);
  const started: string[] = [];
  const stop = async () => {
    for (const data of started.reverse()) await asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    let primaryUrl = localUrl;
    let primaryKind: 'local' | 'temporary' = 'local';
    if (!(await replicationPermitted(localUrl))) {
      primaryKind = 'temporary';
      const data = join(dir, 'primary');
      const port = await freePort();
      await asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
      await writeFile(join(data, 'pg_hba.conf'), 'local all all trust\nhost all all 127.0.0.1/32 trust\nhost replication all 127.0.0.1/32 trust\n');
      const opts = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c wal_level=replica -c max_wal_senders=5 -c max_connections=200 -c shared_buffers=128MB -c fsync=on`;
      await asPostgres('pg_ctl', ['-D', data, '-o', opts, '-l', join(dir, 'primary.log'), '-w', 'start']);
      started.push(data);
      primaryUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
    }
    const p = new URL(primaryUrl);
    const replicaData = join(dir, 'replica');
    const replicaPort = await freePort();
    await asPostgres('pg_basebackup', ['-h', p.hostname, '-p', p.port || '5432', '-U', p.username || 'postgres', '-D', replicaData, '-R', '-X', 'stream', '-c', 'fast']);
    await asPostgres('pg_ctl', [
      '-D',
      replicaData,
      '-o',
      `-p ${replicaPort} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c hot_standby=on -c max_connections=200 -c hot_standby_feedback=on`,
      '-l',
      join(dir, 'replica.log'),
      '-w',
      'start',
    ]);
    started.push(replicaData);
    const replicaUrl = `postgres://postgres@127.0.0.1:${replicaPort}/postgres`;
    await waitFor('the replica to stream', async () => {
      const c = new pg.Client({ connectionString: primaryUrl });
      await c.connect();
      try {
        const { rows } = await c.query(`SELECT 1 FROM pg_stat_replication WHERE state = 'streaming'`);
        return rows.length > 0;
      } finally {
        await c.end();
      }
    }, 30_000, 200);
    const urlFor = (server: 'primary' | 'replica', database: string) => {
      const u = new URL(server === 'primary' ? primaryUrl : replicaUrl);
      u.pathname = `/${database}`;
      return u.toString();
    };
    return { primaryUrl, replicaUrl, primaryKind, urlFor, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
