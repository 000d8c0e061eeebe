import { useId, useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Checkbox, TextInput } from '@primer/react';
import { Table } from '@primer/react/experimental';
import { SearchIcon } from '@primer/octicons-react';
import styles from './DataList.module.css';

export interface DataListColumn<T> {
  header: string;
  /** What the cell shows. */
  cell: (row: T) => ReactNode;
  /** The cell as plain text, matched by the filter box. */
  text: (row: T) => string;
  /** CSS grid track, e.g. 'minmax(12rem, 2fr)'. */
  width?: string;
}

export interface DataListProps<T> {
  /** Title above the table; also labels it. */
  title: string;
  rows: readonly T[];
  rowId: (row: T) => string;
  columns: readonly DataListColumn<T>[];
  /** Shows a Filter box matching any column's text. */
  filterable?: boolean;
  /** Row selection by checkbox; ids of the selected rows. */
  selected?: ReadonlySet<string>;
  onSelectedChange?: (ids: Set<string>) => void;
  /** Row click (or Enter on a focused row) opens the row. */
  onOpen?: (row: T) => void;
  /** Rows per page; no paging when absent. */
  pageSize?: number;
  /** Shown when there are no rows. */
  empty: string;
  /** Buttons beside the title (New, Delete...). */
  actions?: ReactNode;
  loading?: boolean;
  /** Server-side filtering: the box is controlled and rows arrive already filtered. */
  filter?: { value: string; onChange: (value: string) => void };
  /** Server-side paging: rows are one page of `total`. */
  paging?: { pageIndex: number; pageSize: number; total: number; onPageChange: (pageIndex: number) => void };
}

/**
 * The management lists (entities, customers, users, member lists): Primer's Table with a filter
 * box, checkbox selection, row click and paging. Rows are focusable so the keyboard can open them.
 */
export function DataList<T>({
  title,
  rows,
  rowId,
  columns,
  filterable = false,
  selected,
  onSelectedChange,
  onOpen,
  pageSize,
  empty,
  actions,
  loading = false,
  filter: serverFilter,
  paging,
}: DataListProps<T>) {
  const titleId = useId();
  const [localFilter, setLocalFilter] = useState('');
  const [pageIndex, setPageIndex] = useState(0);
  const filter = serverFilter ? serverFilter.value : localFilter;
  const setFilter = serverFilter ? serverFilter.onChange : setLocalFilter;

  const shown = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    if (!needle || serverFilter) return rows;
    return rows.filter((r) => columns.some((c) => c.text(r).toLowerCase().includes(needle)));
  }, [rows, columns, filter, serverFilter]);

  const pageCount = pageSize ? Math.max(1, Math.ceil(shown.length / pageSize)) : 1;
  const page = Math.min(pageIndex, pageCount - 1);
  const visible = pageSize ? shown.slice(page * pageSize, (page + 1) * pageSize) : shown;
  const selectable = !!selected && !!onSelectedChange;
  const visibleIds = visible.map(rowId);
  const allChecked = selectable && visibleIds.length > 0 && visibleIds.every((id) => selected.has(id));
  const someChecked = selectable && visibleIds.some((id) => selected.has(id));

  function toggle(id: string) {
    if (!selectable) return;
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onSelectedChange(next);
  }

  function toggleAll() {
    if (!selectable) return;
    const next = new Set(selected);
    for (const id of visibleIds) {
      if (allChecked) next.delete(id);
      else next.add(id);
    }
    onSelectedChange(next);
  }

  function onRowKey(event: KeyboardEvent<HTMLTableRowElement>, row: T) {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter' && onOpen) {
      event.preventDefault();
      onOpen(row);
    } else if (event.key === ' ' && selectable) {
      event.preventDefault();
      toggle(rowId(row));
    }
  }

  const template = [selectable ? 'min-content' : null, ...columns.map((c) => c.width ?? 'minmax(8rem, 1fr)')].filter(Boolean).join(' ');

  return (
    <Table.Container className={styles.container}>
      <Table.Title as="h2" id={titleId}>
        {title}
      </Table.Title>
      <Table.Actions>
        <div className={styles.actions}>
          {filterable ? (
            <TextInput
              aria-label={`Filter ${title}`}
              placeholder="Filter"
              leadingVisual={SearchIcon}
              value={filter}
              onChange={(e) => {
                setFilter(e.target.value);
                setPageIndex(0);
              }}
            />
          ) : null}
          {actions}
        </div>
      </Table.Actions>
      <Table aria-labelledby={titleId} gridTemplateColumns={template} cellPadding="condensed">
        <Table.Head>
          <Table.Row>
            {selectable ? (
              <Table.Header>
                <Checkbox aria-label="Select all rows" checked={allChecked} indeterminate={!allChecked && someChecked} onChange={toggleAll} />
              </Table.Header>
            ) : null}
            {columns.map((c) => (
              <Table.Header key={c.header}>{c.header}</Table.Header>
            ))}
          </Table.Row>
        </Table.Head>
        <Table.Body>
          {visible.map((row) => {
            const id = rowId(row);
            return (
              <Table.Row
                key={id}
                className={onOpen ? styles.clickable : undefined}
                tabIndex={onOpen || selectable ? 0 : undefined}
                aria-selected={selectable ? selected.has(id) : undefined}
                onClick={onOpen ? () => onOpen(row) : undefined}
                onKeyDown={(e) => onRowKey(e, row)}
              >
                {selectable ? (
                  <Table.Cell onClick={(e) => e.stopPropagation()}>
                    <Checkbox aria-label={`Select ${id}`} checked={selected.has(id)} onChange={() => toggle(id)} />
                  </Table.Cell>
                ) : null}
                {columns.map((c, i) => (
                  <Table.Cell key={c.header} scope={i === 0 ? 'row' : undefined}>
                    {c.cell(row)}
                  </Table.Cell>
                ))}
              </Table.Row>
            );
          })}
        </Table.Body>
      </Table>
      {visible.length === 0 ? <p className={styles.empty}>{loading ? 'Loading…' : filter ? 'No rows match the filter' : empty}</p> : null}
      {paging && paging.total > paging.pageSize ? (
        <Table.Pagination
          aria-label={`Pages of ${title}`}
          pageSize={paging.pageSize}
          totalCount={paging.total}
          defaultPageIndex={paging.pageIndex}
          onChange={({ pageIndex: next }) => paging.onPageChange(next)}
        />
      ) : null}
      {!paging && pageSize && shown.length > pageSize ? (
        <Table.Pagination
          aria-label={`Pages of ${title}`}
          pageSize={pageSize}
          totalCount={shown.length}
          defaultPageIndex={page}
          onChange={({ pageIndex: next }) => setPageIndex(next)}
        />
      ) : null}
    </Table.Container>
  );
}
