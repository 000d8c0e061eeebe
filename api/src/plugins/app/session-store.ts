import type { FastifyInstance } from 'fastify';
import { isSessionEnded, type EndedSession } from '@cc/shared/db/sessions.ts';

/**
 * Whether a session has ended, answered without a database round trip: ending a session writes its row
 * (the truth) and a marker `<prefix>:session-ended:<sid>` in Redis that lives as long as the session could have,
 * so every api process refuses its tokens on the very next request. Only when Redis cannot answer is the row read.
 */
export interface SessionStore {
  isEnded(sid: string): Promise<boolean>;
  /** Call after the rows are ended (committed): from then on every process refuses these sessions. */
  markEnded(sessions: EndedSession[]): Promise<void>;
}

// A marker outlives its session a little, so a token whose clock runs slightly behind is still refused.
const MARGIN_MS = 60_000;

/** The marker of an ended session; read by the access cache in the same round trip as the access epoch. */
export const sessionEndedKey = (prefix: string, sid: string) => `${prefix}:session-ended:${sid}`;

export function sessionStore(app: FastifyInstance): SessionStore {
  const key = (sid: string) => sessionEndedKey(app.config.QUEUE_PREFIX, sid);
  const redis = () => app.producers.redis;
  return {
    async isEnded(sid) {
      try {
        return (await redis().exists(key(sid))) === 1;
      } catch (err) {
        app.log.warn({ err }, 'session check fell back to the database (Redis unavailable)');
        return isSessionEnded(app.pg, sid);
      }
    },
    async markEnded(sessions) {
      if (sessions.length === 0) return;
      const now = Date.now();
      const multi = redis().multi();
      for (const s of sessions) multi.set(key(s.id), '1', 'PX', Math.max(1, s.expires_at.getTime() - now) + MARGIN_MS);
      try {
        await multi.exec();
      } catch (err) {
        // The rows are ended: refresh is refused at once; access tokens already out run to their expiry at most.
        app.log.error({ err, sessions: sessions.length }, 'could not mark ended sessions in Redis');
      }
    },
  };
}
