import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { checkPassword, hashPassword, verifyPassword } from '@cc/shared/auth/passwords.ts';
import type { UserRow } from '@cc/shared/db/users.ts';

/** Password hashing for every route that sets or checks a password (the rule itself: shared/src/auth/passwords.ts). */
export interface Passwords {
  hash(password: string): Promise<string>;
  verify(passwordHash: string, password: string): Promise<boolean>;
  /**
   * The one way a presented password is checked (the sign-in route, the local identity provider's form, the
   * password change): refused with 429 while the account or the client address is locked out, before the password
   * is even looked at; a wrong password counts against both. The user, or null for a wrong password or unknown account.
   */
  authenticate(req: FastifyRequest, email: string, password: string): Promise<UserRow | null>;
}

declare module 'fastify' {
  interface FastifyInstance {
    passwords: Passwords;
  }
}

export default fp(
  async (app) => {
    app.decorate('passwords', {
      hash: hashPassword,
      verify: verifyPassword,
      async authenticate(req, email, password) {
        await app.loginLockout.check(req, email);
        const user = await checkPassword(app.pg, email, password);
        if (!user) await app.loginLockout.failed(req, email);
        return user;
      },
    } satisfies Passwords);
  },
  { name: 'passwords', dependencies: ['pg', 'throttle'] },
);
