import { hash, verify } from '@node-rs/argon2';
import { findUserById, type UserRow } from '@cc/shared/db/users.ts';
import type { Queryable } from '@cc/shared/db/pool.ts';

export const ARGON2_OPTIONS = { algorithm: 2 /* Argon2id; the enum is an ambient const enum */, memoryCost: 19456, timeCost: 2, parallelism: 1 };

/** Hashes a password with argon2id (OWASP's minimum parameters). */
export const hashPassword = (password: string) => hash(password, ARGON2_OPTIONS);

let decoyHash: Promise<string> | null = null;

/**
 * The user whose stored password hash matches, or null: unknown account, no password set, or wrong
 * password alike. Unknown users are verified against a throwaway hash so the answer time does not
 * reveal which e-mails have accounts. Used by /v1/auth/login and the local identity provider.
 */
export async function checkPassword(db: Queryable, email: string, password: string): Promise<UserRow | null> {
  decoyHash ??= hashPassword('decoy-password-not-used');
  const user = await findUserById(db, email.trim());
  const ok = await verify(user?.password_hash ?? (await decoyHash), password).catch(() => false);
  return user && user.password_hash && ok ? user : null;
}
