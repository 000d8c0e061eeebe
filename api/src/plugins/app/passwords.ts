import fp from 'fastify-plugin';
import { hash, verify } from '@node-rs/argon2';

/** argon2id with OWASP's minimum parameters (the algorithm enum is an ambient const enum, hence the number). */
export const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 };

/** Password hashing for every route that sets or checks a password. */
export interface Passwords {
  hash(password: string): Promise<string>;
  verify(passwordHash: string, password: string): Promise<boolean>;
}

declare module 'fastify' {
  interface FastifyInstance {
    passwords: Passwords;
  }
}

export default fp(
  async (app) => {
    app.decorate('passwords', {
      hash: (password: string) => hash(password, ARGON2_OPTIONS),
      verify: (passwordHash: string, password: string) => verify(passwordHash, password),
    } satisfies Passwords);
  },
  { name: 'passwords' },
);
