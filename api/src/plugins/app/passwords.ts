import fp from 'fastify-plugin';
import { hashPassword, verifyPassword } from '@cc/shared/admin/passwords.ts';

/** Password hashing for every route that sets or checks a password (the rule itself: shared/src/admin/passwords.ts). */
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
    app.decorate('passwords', { hash: hashPassword, verify: verifyPassword } satisfies Passwords);
  },
  { name: 'passwords' },
);
