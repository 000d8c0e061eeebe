/**
 * Azurite (Microsoft's Azure Storage emulator, npm `azurite`), its Blob service started as a child process on a free
 * port over a temporary folder. It checks Shared Key signatures against its well-known development account, so a
 * connection string with a wrong key is refused as Azure refuses it. (azurite-preload.cjs: why the preload.)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { BlobServiceClient, type ContainerClient } from '@azure/storage-blob';

/** Azurite's documented development account and key. */
export const AZURITE_ACCOUNT = 'devstoreaccount1';
export const AZURITE_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

export async function startAzurite(): Promise<{
  endpoint: string;
  connectionString: (key?: string) => string;
  container(name: string): ContainerClient;
  close(): Promise<void>;
}> {
  const port = await freePort();
  const location = await mkdtemp(join(tmpdir(), 'cc-azurite-'));
  const main = createRequire(import.meta.url).resolve('azurite/dist/src/blob/main.js');
  const child: ChildProcess = spawn(
    process.execPath,
    ['--require', fileURLToPath(new URL('./azurite-preload.cjs', import.meta.url)), main, '--blobHost', '127.0.0.1', '--blobPort', String(port), '--location', location, '--skipApiVersionCheck', '--silent', '--disableProductStyleUrl'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const endpoint = `http://127.0.0.1:${port}/${AZURITE_ACCOUNT}`;
  const connectionString = (key = AZURITE_KEY) => `DefaultEndpointsProtocol=http;AccountName=${AZURITE_ACCOUNT};AccountKey=${key};BlobEndpoint=${endpoint};`;
  const service = BlobServiceClient.fromConnectionString(connectionString());
  // ready once it answers
  for (let i = 0; ; i++) {
    try {
      await service.getProperties();
      break;
    } catch (err) {
      if (i > 100 || child.exitCode !== null) throw new Error(`azurite did not start: ${String(err)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    endpoint,
    connectionString,
    container: (name) => service.getContainerClient(name),
    close: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(location, { recursive: true, force: true });
    },
  };
}
