/**
 * PostgreSQL faults a test can cause: a TCP proxy in front of the server that it kills (connections cut, new ones
 * refused) and starts again on the same port, and the database itself refusing connections
 * (`ALLOW_CONNECTIONS false` with its backends terminated) or writes (`default_transaction_read_only`).
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { freePort } from './faults.ts';
import { urlFor } from './db.ts';

interface Teardown {
  teardown(fn: () => unknown): void;
}

export interface PgProxy {
  /** DATABASE_URL through the proxy. */
  url: string;
  /** Cuts every connection and stops listening: the port refuses connections (ECONNREFUSED). */
  kill(): Promise<void>;
  start(): Promise<void>;
}

/** A TCP proxy on a free port in front of `databaseUrl`'s server. */
export async function pgProxy(t: Teardown, databaseUrl: string): Promise<PgProxy> {
  const target = new URL(databaseUrl);
  const port = await freePort();
  const url = new URL(databaseUrl);
  url.host = `127.0.0.1:${port}`;
  let server: Server | null = null;
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  const p: PgProxy = {
    url: url.toString(),
    async start() {
      if (server) return;
      const s = createServer((client) => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        track(client);
        track(upstream);
        client.pipe(upstream).pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      await new Promise<void>((resolve, reject) => s.once('error', reject).listen(port, '127.0.0.1', () => resolve()));
      server = s;
    },
    async kill() {
      const s = server;
      server = null;
      for (const sock of sockets) sock.destroy();
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
  await p.start();
  t.teardown(() => p.kill());
  return p;
}

export interface DatabaseSwitch {
  /** `ALLOW_CONNECTIONS false` (new connections get SQLSTATE 55000) and every open connection terminated (57P01). */
  refuseConnections(): Promise<void>;
  allowConnections(): Promise<void>;
  /** `default_transaction_read_only` for new sessions, open ones terminated: every write gets SQLSTATE 25006. */
  readOnly(on: boolean): Promise<void>;
  /** Terminates the database's connections (optionally those of one application_name); resolves to how many. */
  terminate(appName?: string): Promise<number>;
}

/** Switches on the server's `postgres` database, so they work while the test's database refuses everyone. */
export async function databaseSwitch(t: Teardown, databaseUrl: string): Promise<DatabaseSwitch> {
  const name = new URL(databaseUrl).pathname.slice(1);
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`unexpected database name ${name}`);
  const admin = new pg.Client({ connectionString: urlFor('postgres') });
  admin.on('error', () => undefined);
  await admin.connect();
  const terminate = async (appName?: string) =>
    (await admin.query<{ n: number }>(
      `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
        WHERE datname = $1 AND pid <> pg_backend_pid() AND ($2::text IS NULL OR application_name = $2)`,
      [name, appName ?? null],
    )).rows[0].n;
  const sw: DatabaseSwitch = {
    terminate,
    async refuseConnections() {
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      await terminate();
    },
    async allowConnections() {
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    },
    async readOnly(on) {
      await admin.query(on ? `ALTER DATABASE ${name} SET default_transaction_read_only = on` : `ALTER DATABASE ${name} RESET default_transaction_read_only`);
      await terminate();
    },
  };
  // Registered after the database's own teardown, so it runs before the drop.
  t.teardown(async () => {
    await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`).catch(() => undefined);
    await admin.query(`ALTER DATABASE ${name} RESET default_transaction_read_only`).catch(() => undefined);
    await admin.end();
  });
  return sw;
}
