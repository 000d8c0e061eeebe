/**
 * User management (spec 001 §2.7, §4, §7): the user list and the changes that must follow a user
 * everywhere — access moves between customers, e-mail changes, removal from every list.
 */
import type { Role } from '../permissions.ts';
import type { Queryable } from './pool.ts';

export interface AdminUserRow {
  id: string;
  role: Role | null;
  email_verified: boolean;
  invitation_pending: boolean;
  customers: { id: string; name: string; entity: string | null; entity_name: string | null }[];
}

// Everyone with a user entry, plus addresses only found in an access list (shown as 'user not found').
const PEOPLE = `
  WITH people AS (SELECT id FROM app_user UNION SELECT user_id FROM customer_member WHERE list = 'users'),
  rows AS (
    SELECT p.id, u.role, COALESCE(u.email_verified, false) AS email_verified,
           EXISTS (SELECT 1 FROM invitation i WHERE i.user_id = p.id AND i.used_at IS NULL) AS invitation_pending,
           COALESCE((SELECT json_agg(json_build_object('id', c.customer_id, 'name', c.customer_name, 'entity', c.entity, 'entity_name', e.name)
                              ORDER BY c.customer_name, c.customer_id)
                       FROM customer_member m JOIN customer c ON c.customer_id = m.customer_id LEFT JOIN entity e ON e.id = c.entity
                      WHERE m.list = 'users' AND m.user_id = p.id), '[]') AS customers
      FROM people p LEFT JOIN app_user u ON u.id = p.id
  )`;

const likePattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** One page of users sorted by e-mail; `q` matches e-mail, role, customer or entity names. */
export async function listAdminUsers(db: Queryable, opts: { offset: number; limit: number; q: string }): Promise<{ users: AdminUserRow[]; total: number }> {
  const { rows } = await db.query<AdminUserRow & { total: string }>(
    `${PEOPLE}
     SELECT *, count(*) OVER () AS total FROM rows
      WHERE $1 = '' OR lower(id) LIKE $2 OR lower(COALESCE(role, '')) LIKE $2 OR lower(customers::text) LIKE $2
      ORDER BY id LIMIT $3 OFFSET $4`,
    [opts.q, likePattern(opts.q), opts.limit, opts.offset],
  );
  let total = rows.length ? Number(rows[0]!.total) : 0;
  if (rows.length === 0 && opts.offset > 0) {
    const { rows: c } = await db.query<{ n: string }>(
      `${PEOPLE} SELECT count(*) AS n FROM rows WHERE $1 = '' OR lower(id) LIKE $2 OR lower(COALESCE(role, '')) LIKE $2 OR lower(customers::text) LIKE $2`,
      [opts.q, likePattern(opts.q)],
    );
    total = Number(c[0]!.n);
  }
  return { users: rows.map(({ total: _t, ...u }) => u), total };
}

export async function findAdminUser(db: Queryable, id: string): Promise<AdminUserRow | null> {
  const { rows } = await db.query<AdminUserRow>(`${PEOPLE} SELECT * FROM rows WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/** Which of `ids` have a user entry. */
export async function existingUserIds(db: Queryable, ids: string[]): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM app_user WHERE id = ANY($1::text[]) ORDER BY id', [ids]);
  return rows.map((r) => r.id);
}

/** Which of `ids` are on the users list of any of `customerIds`. */
export async function membersOfAny(db: Queryable, ids: string[], customerIds: string[]): Promise<string[]> {
  const { rows } = await db.query<{ user_id: string }>(
    `SELECT DISTINCT user_id FROM customer_member
      WHERE list = 'users' AND user_id = ANY($1::text[]) AND customer_id = ANY($2::text[]) ORDER BY user_id`,
    [ids, customerIds],
  );
  return rows.map((r) => r.user_id);
}

/** Is the address known anywhere (user entry, or any customer list)? */
export async function addressInUse(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query(
    'SELECT 1 FROM app_user WHERE id = $1 UNION ALL SELECT 1 FROM customer_member WHERE user_id = $1 LIMIT 1',
    [id],
  );
  return (rowCount ?? 0) > 0;
}

/** A new user: no password until they accept their invitation, which also verifies the e-mail. */
export async function insertInvitedUser(db: Queryable, id: string, role: Role): Promise<void> {
  await db.query('INSERT INTO app_user (id, role, email_verified) VALUES ($1, $2, false)', [id, role]);
}

export async function setUserRole(db: Queryable, id: string, role: Role): Promise<void> {
  await db.query('UPDATE app_user SET role = $2, updated_at = now() WHERE id = $1', [id, role]);
}

/** The customers whose users list holds the user. */
export async function accessOf(db: Queryable, userId: string): Promise<string[]> {
  const { rows } = await db.query<{ customer_id: string }>(
    `SELECT customer_id FROM customer_member WHERE list = 'users' AND user_id = $1 ORDER BY customer_id`,
    [userId],
  );
  return rows.map((r) => r.customer_id);
}

/**
 * Grants exactly `customerIds` (spec 001 §4 moving a user): customers left lose the user from their users,
 * notify and alert lists and their viewer filters; customers joined get the user on `users`, and on
 * `notify` / `alert` when the user was on that list of a customer they left.
 */
export async function setUserAccess(db: Queryable, userId: string, customerIds: string[]): Promise<{ left: string[]; joined: string[] }> {
  const current = await accessOf(db, userId);
  const left = current.filter((c) => !customerIds.includes(c));
  const joined = customerIds.filter((c) => !current.includes(c));
  const { rows } = await db.query<{ list: 'notify' | 'alert' }>(
    `SELECT DISTINCT list FROM customer_member WHERE user_id = $1 AND customer_id = ANY($2::text[]) AND list <> 'users'`,
    [userId, left],
  );
  if (left.length) {
    await db.query('DELETE FROM customer_member WHERE user_id = $1 AND customer_id = ANY($2::text[])', [userId, left]);
    await db.query('DELETE FROM viewer_filter WHERE user_id = $1 AND customer_id = ANY($2::text[])', [userId, left]);
  }
  for (const list of ['users', ...rows.map((r) => r.list)]) {
    await db.query(
      'INSERT INTO customer_member (customer_id, list, user_id) SELECT unnest($1::text[]), $2, $3 ON CONFLICT DO NOTHING',
      [joined, list, userId],
    );
  }
  return { left, joined };
}

/** A new e-mail replaces the old one everywhere: user entry (filters and invitations follow), lists, entity admins. */
export async function renameUser(db: Queryable, from: string, to: string): Promise<void> {
  await db.query('UPDATE app_user SET id = $2, updated_at = now() WHERE id = $1', [from, to]);
  await db.query('UPDATE customer_member SET user_id = $2 WHERE user_id = $1', [from, to]);
  await db.query('UPDATE entity_admin SET user_id = $2 WHERE user_id = $1', [from, to]);
}

/** Removes users everywhere (spec 001 §4): every list of every customer, filters, entity admins, invitations, the entry. */
export async function deleteUsers(db: Queryable, ids: string[]): Promise<number> {
  const { rows } = await db.query<{ n: string }>(
    `SELECT count(*) AS n FROM (SELECT id FROM app_user WHERE id = ANY($1::text[])
                                UNION SELECT user_id FROM customer_member WHERE user_id = ANY($1::text[])) x`,
    [ids],
  );
  await db.query('DELETE FROM customer_member WHERE user_id = ANY($1::text[])', [ids]);
  await db.query('DELETE FROM viewer_filter WHERE user_id = ANY($1::text[])', [ids]);
  await db.query('DELETE FROM entity_admin WHERE user_id = ANY($1::text[])', [ids]);
  await db.query('DELETE FROM app_user WHERE id = ANY($1::text[])', [ids]);
  return Number(rows[0]!.n);
}
