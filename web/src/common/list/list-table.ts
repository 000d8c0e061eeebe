/**
 * The list logic behind `ListTable`: filter, sort and page rows, kept apart from React so the rules
 * (spec 000 §9: page size 10, options 10, 100, 200, 500, with a row count text) sit in one place.
 */

/** Page sizes every list offers (spec 000 §9). */
export const PAGE_SIZES = [10, 100, 200, 500] as const;
export const DEFAULT_PAGE_SIZE = 10;

export type SortDirection = 'ASC' | 'DESC';

/** A value a column sorts by: numbers sort numerically, text by locale. */
export type SortValue = string | number | null;

/** Keeps the rows whose text (any visible column) contains every word of the query, case-insensitive. */
export function filterRows<Row>(rows: readonly Row[], query: string, textOf: (row: Row) => string): Row[] {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...rows];
  return rows.filter((row) => {
    const text = textOf(row).toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

/** A stable sort by one column; empty values go last whichever the direction. */
export function sortRows<Row>(rows: readonly Row[], valueOf: (row: Row) => SortValue, direction: SortDirection): Row[] {
  const sign = direction === 'ASC' ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index, value: valueOf(row) }))
    .sort((a, b) => {
      if (a.value === null || a.value === '') return b.value === null || b.value === '' ? a.index - b.index : 1;
      if (b.value === null || b.value === '') return -1;
      const c =
        typeof a.value === 'number' && typeof b.value === 'number'
          ? a.value - b.value
          : String(a.value).localeCompare(String(b.value), 'en', { numeric: true, sensitivity: 'base' });
      return c !== 0 ? sign * c : a.index - b.index;
    })
    .map((x) => x.row);
}

/** The rows of one page; a page index past the end shows the last page. */
export function pageOf<Row>(rows: readonly Row[], pageIndex: number, pageSize: number): { rows: Row[]; pageIndex: number } {
  const pages = Math.max(1, Math.ceil(rows.length / pageSize));
  const index = Math.min(Math.max(0, pageIndex), pages - 1);
  return { rows: rows.slice(index * pageSize, (index + 1) * pageSize), pageIndex: index };
}

/** The row count text of a page, '11–12 of 12' (spec 000 §9), and the index of the last page. */
export function pageRange(total: number, pageIndex: number, pageSize: number): { text: string; lastPage: number } {
  const first = total === 0 ? 0 : pageIndex * pageSize + 1;
  const last = Math.min(total, (pageIndex + 1) * pageSize);
  return { text: `${first}–${last} of ${total}`, lastPage: Math.max(0, Math.ceil(total / pageSize) - 1) };
}
