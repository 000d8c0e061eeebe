import { useId } from 'react';
import styles from './Kiosk.module.css';

/** One column of a kiosk table: its header, alignment and the cell text of a row. */
export interface KioskColumn<T> {
  id: string;
  header: string;
  align?: 'start' | 'end';
  text: (row: T) => string;
}

/**
 * A plain table for the wall screen: every row at once, nothing to sort, filter or page, so it needs none of the
 * list machinery (`common/list/ListTable.tsx` brings Primer's data table, a column chooser and a pager, about 24 KB
 * gzipped that the kiosk's first load cannot afford beside Plotly). The first cell of a row is its header.
 */
export function KioskTable<T>({ title, rows, rowId, columns, emptyText }: { title: string; rows: readonly T[]; rowId: (row: T) => string; columns: readonly KioskColumn<T>[]; emptyText: string }) {
  const titleId = useId();
  return (
    <section className={styles.tablePanel} aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.cardTitle}>
        {title}
      </h2>
      {rows.length === 0 ? (
        <p className={styles.empty}>{emptyText}</p>
      ) : (
        <div className={styles.tableScroll}>
          <table className={styles.table} aria-labelledby={titleId}>
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c.id} scope="col" data-align={c.align ?? 'start'}>
                    {c.header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={rowId(r)}>
                  {columns.map((c, i) =>
                    i === 0 ? (
                      <th key={c.id} scope="row" data-align={c.align ?? 'start'}>
                        {c.text(r)}
                      </th>
                    ) : (
                      <td key={c.id} data-align={c.align ?? 'start'}>
                        {c.text(r)}
                      </td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
