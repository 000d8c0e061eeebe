import type { LabelFilter } from '../claims.ts';
import type { Queryable } from './pool.ts';

export interface ViewerRow {
  user: string;
  project_label: LabelFilter[];
}

/** customerViewer users on the customer's users list, with their project-label filters for it, by e-mail. */
export async function listViewers(db: Queryable, customerId: string): Promise<ViewerRow[]> {
  const { rows } = await db.query<ViewerRow>(
    `SELECT u.id AS "user",
            COALESCE((SELECT json_agg(json_build_object('label_key', f.label_key, 'label_value', f.label_value) ORDER BY f.label_key, f.label_value)
                        FROM viewer_filter f WHERE f.customer_id = m.customer_id AND f.user_id = u.id), '[]') AS project_label
       FROM customer_member m JOIN app_user u ON u.id = m.user_id
      WHERE m.customer_id = $1 AND m.list = 'users' AND u.role = 'customerViewer'
      ORDER BY u.id`,
    [customerId],
  );
  return rows;
}

/** Those of `users` that are not customerViewers with access to the customer. */
export async function findNonViewers(db: Queryable, customerId: string, users: string[]): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT x.id FROM unnest($2::text[]) WITH ORDINALITY AS x(id, n)
      WHERE NOT EXISTS (SELECT 1 FROM customer_member m JOIN app_user u ON u.id = m.user_id
                         WHERE m.customer_id = $1 AND m.list = 'users' AND u.role = 'customerViewer' AND u.id = x.id)
      ORDER BY x.n`,
    [customerId, users],
  );
  return rows.map((r) => r.id);
}

export async function addViewerFilter(db: Queryable, customerId: string, users: string[], filter: LabelFilter): Promise<void> {
  await db.query(
    `INSERT INTO viewer_filter (customer_id, user_id, label_key, label_value)
     SELECT $1, u, $3, $4 FROM unnest($2::text[]) AS u
     ON CONFLICT DO NOTHING`,
    [customerId, users, filter.label_key, filter.label_value],
  );
}

/** Drops every filter of the user for the customer (spec 001 §4). */
export async function removeViewerFilters(db: Queryable, customerId: string, userId: string): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM viewer_filter WHERE customer_id = $1 AND user_id = $2', [customerId, userId]);
  return rowCount ?? 0;
}
