import type { Claims, CustomerFilter, CustomerRef } from '../claims.ts';
import { ROLE_PERMISSIONS, type Role } from '../permissions.ts';
import type { Queryable } from './pool.ts';

export interface UserRow {
  id: string;
  role: Role | null;
  password_hash: string | null;
  email_verified: boolean;
  picture: string;
  claims: StoredClaims | null;
}

/** What set_claims / update_claims store; customers are always read live so a grant is effective at once. */
export interface StoredClaims {
  role: Role;
  perms: string[];
  admin: boolean;
  filters: CustomerFilter[];
}

export async function findUserById(db: Queryable, id: string): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(
    'SELECT id, role, password_hash, email_verified, picture, claims FROM app_user WHERE id = $1',
    [id.toLowerCase()],
  );
  return rows[0] ?? null;
}

/** The customers a user may act for: every customer for an admin, else those whose `users` list holds them. */
/** Customers named in the claims: the first by name (the picker's first options); the picker searches the rest. */
export const CLAIMS_CUSTOMERS = 25;

/**
 * One page of the customers the user may act for (every customer, for an admin), by name; `search` matches the name
 * or id, case-insensitively. With the total, for the header's customer picker.
 */
export async function pageCustomersOfUser(
  db: Queryable,
  userId: string,
  admin: boolean,
  q: { search?: string; offset: number; limit: number },
): Promise<{ items: CustomerRef[]; total: number }> {
  const pattern = q.search ? `%${q.search.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%` : null;
  const { rows } = await db.query<CustomerRef & { total: number }>(
    `SELECT c.customer_id AS id, c.customer_name AS name, c.entity, count(*) OVER ()::int AS total
       FROM customer c
      WHERE ($1 OR EXISTS (SELECT 1 FROM customer_member m WHERE m.customer_id = c.customer_id AND m.list = 'users' AND m.user_id = $2))
        AND ($3::text IS NULL OR c.customer_name ILIKE $3 OR c.customer_id ILIKE $3)
      ORDER BY c.customer_name, c.customer_id
      OFFSET $4 LIMIT $5`,
    [admin, userId, pattern, q.offset, q.limit],
  );
  if (rows.length === 0 && q.offset > 0) {
    const { rows: counted } = await db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM customer c
        WHERE ($1 OR EXISTS (SELECT 1 FROM customer_member m WHERE m.customer_id = c.customer_id AND m.list = 'users' AND m.user_id = $2))
          AND ($3::text IS NULL OR c.customer_name ILIKE $3 OR c.customer_id ILIKE $3)`,
      [admin, userId, pattern],
    );
    return { items: [], total: counted[0]?.total ?? 0 };
  }
  return { items: rows.map(({ total: _total, ...c }) => c), total: rows[0]?.total ?? 0 };
}

export async function listCustomersOfUser(db: Queryable, userId: string, admin: boolean): Promise<CustomerRef[]> {
  const { rows } = admin
    ? await db.query<CustomerRef>('SELECT customer_id AS id, customer_name AS name, entity FROM customer ORDER BY customer_name')
    : await db.query<CustomerRef>(
        `SELECT c.customer_id AS id, c.customer_name AS name, c.entity
           FROM customer c JOIN customer_member m ON m.customer_id = c.customer_id AND m.list = 'users'
          WHERE m.user_id = $1 ORDER BY c.customer_name`,
        [userId],
      );
  return rows;
}

export async function listFiltersOfUser(db: Queryable, userId: string): Promise<CustomerFilter[]> {
  const { rows } = await db.query<{ customer: string; project_label: CustomerFilter['project_label'] }>(
    `SELECT customer_id AS customer,
            json_agg(json_build_object('label_key', label_key, 'label_value', label_value) ORDER BY label_key, label_value) AS project_label
       FROM viewer_filter WHERE user_id = $1 GROUP BY customer_id ORDER BY customer_id`,
    [userId],
  );
  return rows;
}

/** Recomputes and stores a user's claims from role and filters (spec: set_claims / update_claims). */
export async function refreshClaims(db: Queryable, userId: string): Promise<StoredClaims | null> {
  const user = await findUserById(db, userId);
  if (!user) return null;
  if (!user.role) {
    await db.query('UPDATE app_user SET claims = NULL, updated_at = now() WHERE id = $1', [user.id]);
    return null;
  }
  const claims: StoredClaims = {
    role: user.role,
    perms: [...ROLE_PERMISSIONS[user.role]],
    admin: user.role === 'admin',
    filters: await listFiltersOfUser(db, user.id),
  };
  await db.query('UPDATE app_user SET claims = $2, updated_at = now() WHERE id = $1', [user.id, JSON.stringify(claims)]);
  return claims;
}

/** Full claims for a token: the stored ones plus the live customer list. */
async function firstCustomers(db: Queryable, userId: string, admin: boolean): Promise<{ customers: CustomerRef[]; customer_count: number }> {
  const { items, total } = await pageCustomersOfUser(db, userId, admin, { offset: 0, limit: CLAIMS_CUSTOMERS });
  return { customers: items, customer_count: total };
}

export async function buildClaims(db: Queryable, user: UserRow): Promise<Claims | null> {
  if (!user.claims) return null;
  return {
    email: user.id,
    role: user.claims.role,
    perms: user.claims.perms,
    admin: user.claims.admin,
    filters: user.claims.filters,
    ...(await firstCustomers(db, user.id, user.claims.admin)),
    picture: user.picture,
  };
}

export async function upsertUser(
  db: Queryable,
  u: { id: string; role: Role | null; passwordHash?: string | null; emailVerified: boolean },
): Promise<void> {
  await db.query(
    `INSERT INTO app_user (id, role, password_hash, email_verified) VALUES ($1, $2, $3, $4)
     ON CONFLICT (id) DO UPDATE SET role = EXCLUDED.role,
       password_hash = COALESCE(EXCLUDED.password_hash, app_user.password_hash),
       email_verified = EXCLUDED.email_verified, updated_at = now()`,
    [u.id.toLowerCase(), u.role, u.passwordHash ?? null, u.emailVerified],
  );
}

export async function markEmailVerified(db: Queryable, userId: string): Promise<void> {
  await db.query('UPDATE app_user SET email_verified = true, updated_at = now() WHERE id = $1', [userId]);
}
