import { hash, verify } from '@node-rs/argon2';
import { findUserById, type UserRow } from '../db/users.ts';
import type { Queryable } from '../db/pool.ts';

/**
 * The one password rule of the product: argon2id with OWASP's minimum parameters (the algorithm enum is an
 * ambient const enum, hence the number). The api's `passwords` plugin, the local identity provider and the seed
 * all hash and check through here, so a stored hash always verifies wherever it was made.
 */
export const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string) => hash(password, ARGON2_OPTIONS);
export const verifyPassword = (passwordHash: string, password: string) => verify(passwordHash, password).catch(() => false);

let decoyHash: Promise<string> | null = null;

/**
 * The user whose stored password hash matches, or null: unknown account, no password set, or wrong
 * password alike. Unknown users are verified against a throwaway hash so the answer time does not
 * reveal which e-mails have accounts. Called only through the api's `passwords.authenticate`, which puts every presented
 * password (sign-in, the local identity provider, the password change) through the sign-in lockout.
 */
export async function checkPassword(db: Queryable, email: string, password: string): Promise<UserRow | null> {
  decoyHash ??= hashPassword('decoy-password-not-used');
  const user = await findUserById(db, email.trim());
  const ok = await verifyPassword(user?.password_hash ?? (await decoyHash), password);
  return user && user.password_hash && ok ? user : null;
}
