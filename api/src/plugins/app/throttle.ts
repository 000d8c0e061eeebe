import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import { normaliseEmail } from '@cc/shared/emails.ts';

/** A 429 the error handler turns into `{detail}` with `Retry-After`. */
export class TooManyRequests extends Error {
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
  /** Counts a failed password against the account and the address. */
  failed(req: FastifyRequest, email: string): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    loginLockout: LoginLockout;
  }
}

/** The Redis keys of the two failure counts, under the deployment's prefix (also what tests and operators look up). */
export const lockoutKeys = (prefix: string, req: Pick<FastifyRequest, 'ip'>, email: string) => ({
  account: `${prefix}:rate-limit:login-account:${normaliseEmail(email)}`,
  address: `${prefix}:rate-limit:login-address:${req.ip}`,
});

/**
 * Throttling with @fastify/rate-limit, counted in Redis so the limits hold across api processes (keys under the
 * queue prefix). Routes opt in with `config.rateLimit`. The client address is the socket's unless TRUST_PROXY names
 * the proxy in front, so a forged X-Forwarded-For changes nothing. Should Redis be down, requests pass unthrottled
 * rather than fail (skipOnError): sign-in stays possible in an outage.
 *
 * The password lockout counts its own keys: the plugin's `createRateLimit` names its keys after a route it does not
 * have (`…undefinedundefined-login-account:…`), which no operator looking for a locked account would guess.
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

    // Failures, not attempts: a user who signs in often is never locked out, a guesser is. The window starts at the
    // first failure and is not extended by later ones, so a lockout ends LOGIN_LOCKOUT_MINUTES after it began.
    const windowMs = app.config.LOGIN_LOCKOUT_MINUTES * 60_000;
    const redis = () => app.producers.redis;
    const limits = (req: FastifyRequest, email: string) => {
      const keys = lockoutKeys(app.config.QUEUE_PREFIX, req, email);
      return [
        { key: keys.account, max: app.config.LOGIN_MAX_FAILURES },
        { key: keys.address, max: app.config.LOGIN_MAX_FAILURES_PER_ADDRESS },
      ];
    };

    app.decorate('loginLockout', {
      async check(req, email) {
        let counts: [number, number][];
        try {
          const multi = redis().multi();
          for (const { key } of limits(req, email)) multi.get(key).pttl(key);
          const answers = ((await multi.exec()) ?? []).map(([err, value]) => {
            if (err) throw err;
            return value;
          });
          counts = limits(req, email).map((_, i) => [Number(answers[2 * i] ?? 0), Number(answers[2 * i + 1])]);
        } catch (err) {
          req.log.warn({ err }, 'sign-in lockout not checked (Redis unavailable)');
          return;
        }
        limits(req, email).forEach(({ max }, i) => {
          const [count, ttl] = counts[i]!;
          if (count >= max && ttl > 0) throw new TooManyRequests(Math.ceil(ttl / 1000));
        });
      },
      async failed(req, email) {
        try {
          const multi = redis().multi();
          for (const { key } of limits(req, email)) multi.incr(key).pexpire(key, windowMs, 'NX');
          await multi.exec();
        } catch (err) {
          req.log.warn({ err }, 'sign-in failure not counted (Redis unavailable)');
        }
      },
    } satisfies LoginLockout);
  },
  { name: 'throttle', dependencies: ['config', 'queues'] },
);
