/**
 * Logs of processes other than the api (workers, scripts): pino with the api's settings (Fastify's logger is pino
 * with `{ level: LOG_LEVEL }`), so every process writes the same JSON lines (level, time, pid, hostname, msg).
 */
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string, bindings: Record<string, unknown> = {}): Logger {
  return pino({ level }).child(bindings);
}
