/**
 * The local mail server (MAIL=local) runs once per machine, however many workers: `make start` runs it as its own
 * process (main.ts here), and a worker finding LOCAL_SMTP_PORT taken by it sends there instead of dying with
 * EADDRINUSE. A worker alone (tests, LOCAL_SMTP_PORT=0, a bare `npm run start:worker`) still serves it itself.
 */
import { connect } from 'node:net';
import type { Pool } from '../../db/pool.ts';
import { LOCAL_SMTP_BANNER, startLocalSmtpServer } from './local-smtp-server.ts';

export interface LocalSmtp {
  port: number;
  /** True when this process serves it (and closes it at shutdown). */
  own: boolean;
  close(): Promise<void>;
}

/** The first line the SMTP server on `port` says (its 220 greeting), or '' when nothing answers in time. */
export function smtpGreeting(port: number, host = '127.0.0.1', timeoutMs = 3_000): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ port, host });
    let text = '';
    const done = (line: string) => {
      socket.destroy();
      resolve(line);
    };
    socket.setTimeout(timeoutMs, () => done(''));
    socket.on('error', () => done(''));
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      const end = text.indexOf('\n');
      if (end !== -1) done(text.slice(0, end).trim());
    });
  });
}

/** The port already serves CommandCenter's local mail (another process started it). */
export async function isLocalSmtp(port: number, host = '127.0.0.1'): Promise<boolean> {
  const greeting = await smtpGreeting(port, host);
  return greeting.startsWith('220 ') && greeting.includes(LOCAL_SMTP_BANNER);
}

/**
 * Serves the local mail on `port`, or uses the local mail server another process already serves there. A port taken
 * by another program is a configuration error (mail would go to it).
 */
export async function localSmtp(pool: Pool, port: number, host = '127.0.0.1'): Promise<LocalSmtp> {
  try {
    const server = await startLocalSmtpServer(pool, port, host);
    return { port: server.port, own: true, close: server.close };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    if (!(await isLocalSmtp(port, host))) throw new Error(`LOCAL_SMTP_PORT ${port} is taken by another program, not CommandCenter's local mail server`);
    return { port, own: false, close: async () => undefined };
  }
}
