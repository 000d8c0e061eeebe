import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import { normaliseEmail } from '@cc/shared/admin/emails.ts';

/** A 429 the error handler turns into `{detail}` with `Retry-After`. */
class TooManyRequests extends Error {
  statusCode = 429;
  headers: Record<string, string>;
  constructor(seconds: number) {
    super(`Too many attempts; try again in ${Math.max(1, seconds)} seconds`);
    this.headers = { 'retry-after': String(Math.max(1, seconds)) };
  }
}

export interface LoginLockout {
  /** Throws 429 when this account or this client address is locked out by earlier failures. */
  check(req: FastifyRequest, email: string): Promise<void>;
  /** Counts a failed sign-in against the account and the address. */
  failed(req: FastifyRequest, email: string): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    loginLockout: LoginLockout;
  }
}

/**
 * Throttling (issue 12) with @fastify/rate-limit, counted in Redis so the limits hold across api processes
 * (keys under the queue prefix). Routes opt in with `config.rateLimit`; sign-in uses the lockout below. The client
 * address is the socket's unless TRUST_PROXY names the proxy in front, so a forged X-Forwarded-For changes nothing.
 * Should Redis be down, requests pass unthrottled rather than fail (skipOnError): sign-in stays possible in an outage.
 */
export default fp(
  async (app) => {
    await app.register(rateLimit, {
      global: false,
      redis: app.producers.redis,
      nameSpace: `${app.config.QUEUE_PREFIX}:rate-limit:`,
      skipOnError: true,
      errorResponseBuilder: (_req, ctx) => new TooManyRequests(Math.ceil(ctx.ttl / 1000)),
    });

    // Sign-in failures, not attempts: a user who signs in often is never locked out, a guesser is.
    const window = app.config.LOGIN_LOCKOUT_MINUTES * 60_000;
    const perAccount = app.createRateLimit({
      max: app.config.LOGIN_MAX_FAILURES,
      timeWindow: window,
      keyGenerator: (req) => `login-account:${accountOf(req)}`,
    });
    const perAddress = app.createRateLimit({
      max: app.config.LOGIN_MAX_FAILURES_PER_ADDRESS,
      timeWindow: window,
      keyGenerator: (req) => `login-address:${req.ip}`,
    });
    const emails = new WeakMap<FastifyRequest, string>();
    const accountOf = (req: FastifyRequest) => emails.get(req) ?? '';

    app.decorate('loginLockout', {
      async check(req, email) {
        emails.set(req, normaliseEmail(email));
        for (const limit of [perAccount, perAddress]) {
          const state = await limit(req, { increment: false });
          // `current` is not exposed on a read: remaining 0 means the failures reached the maximum.
          if (!state.isAllowed && state.remaining === 0 && state.ttl > 0) throw new TooManyRequests(state.ttlInSeconds);
        }
      },
      async failed(req, email) {
        emails.set(req, normaliseEmail(email));
        await Promise.all([perAccount(req), perAddress(req)]);
      },
    } satisfies LoginLockout);
  },
  { name: 'throttle', dependencies: ['config', 'queues'] },
);
