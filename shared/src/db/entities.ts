import type { Queryable } from './pool.ts';

/** An entity with its admins' e-mails (spec 001 §3 Entity). */
export interface EntityRow {
  id: string;
  name: string;
  email_domain_allowed: string;
  admins: string[];
}

const SELECT_ENTITY = `
  SELECT e.id, e.name, e.email_domain_allowed,
         COALESCE((SELECT array_agg(a.user_id ORDER BY a.user_id) FROM entity_admin a WHERE a.entity_id = e.id), '{}') AS admins
    FROM entity e`;

/** Every entity ordered by name (spec 001 §7: entities read all, ordered by name). */
export async function listEntities(db: Queryable): Promise<EntityRow[]> {
  const { rows } = await db.query<EntityRow>(`${SELECT_ENTITY} ORDER BY e.name, e.id`);
  return rows;
}

export async function findEntity(db: Queryable, id: string): Promise<EntityRow | null> {
  const { rows } = await db.query<EntityRow>(`${SELECT_ENTITY} WHERE e.id = $1`, [id]);
  return rows[0] ?? null;
}

export async function entityExists(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM entity WHERE id = $1', [id]);
  return (rowCount ?? 0) > 0;
}

/** Entity ids starting with `base` (to pick a free one). */
export async function entityIdsLike(db: Queryable, base: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(`SELECT id FROM entity WHERE id = $1 OR id LIKE $1 || '-%'`, [base]);
  return rows.map((r) => r.id);
}

export async function insertEntity(db: Queryable, e: { id: string; name: string; email_domain_allowed: string }): Promise<void> {
  await db.query('INSERT INTO entity (id, name, email_domain_allowed) VALUES ($1, $2, $3)', [e.id, e.name, e.email_domain_allowed]);
}

/** Returns false when the entity does not exist. */
export async function updateEntity(db: Queryable, e: { id: string; name: string; email_domain_allowed: string }): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE entity SET name = $2, email_domain_allowed = $3 WHERE id = $1', [e.id, e.name, e.email_domain_allowed]);
  return (rowCount ?? 0) > 0;
}

export async function addEntityAdmins(db: Queryable, entityId: string, userIds: string[]): Promise<void> {
  await db.query(
    'INSERT INTO entity_admin (entity_id, user_id) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING',
    [entityId, userIds],
  );
}

export async function removeEntityAdmins(db: Queryable, entityId: string, userIds: string[]): Promise<void> {
  await db.query('DELETE FROM entity_admin WHERE entity_id = $1 AND user_id = ANY($2::text[])', [entityId, userIds]);
}

/** The entity of one customer ({id: null, name: null} when it has none); null when the customer does not exist. */
export async function entityOfCustomer(db: Queryable, customerId: string): Promise<{ id: string | null; name: string | null } | null> {
  const { rows } = await db.query<{ id: string | null; name: string | null }>(
    'SELECT e.id, e.name FROM customer c LEFT JOIN entity e ON e.id = c.entity WHERE c.customer_id = $1',
    [customerId],
  );
  return rows[0] ?? null;
}
