import { useId, useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Checkbox, TextInput, VisuallyHidden } from '@primer/react';
import { Table } from '@primer/react/experimental';
import { SearchIcon, SortAscIcon, SortDescIcon } from '@primer/octicons-react';
import { clsx } from 'clsx';
import { ColumnChooser } from './ColumnChooser.tsx';
import { Pager } from './Pager.tsx';
import { DEFAULT_PAGE_SIZE, filterRows, pageOf, sortRows, type SortDirection, type SortValue } from './list-table.ts';
import styles from './ListTable.module.css';

/** One column of a `ListTable`. */
export interface ListColumn<Row> {
  /** Stable key: names the column in the sort state and the column chooser. */
  id: string;
  header: string;
  /** The cell as text: shown (unless `render` is given), matched by the filter, and sorted on. */
  text: (row: Row) => string;
  render?: (row: Row) => ReactNode;
  /** What the column sorts by, when not its text (e.g. a number). */
  sortValue?: (row: Row) => SortValue;
  /** Sortable by its header when the list sorts (default true). */
  sortable?: boolean;
  align?: 'start' | 'end';
  /** CSS grid track, e.g. 'minmax(12rem, 2fr)'; default: as wide as its content, sharing the rest. */
  width?: string;
}

/** Row selection, owned by the caller (it acts on the selected ids). */
export interface ListSelection {
  selected: ReadonlySet<string>;
  onChange: (selected: Set<string>) => void;
}

/** Paging done by the api: `rows` are page `pageIndex` of `total`. */
export interface ServerPaging {
  pageIndex: number;
  pageSize: number;
  total: number;
  onPage: (pageIndex: number) => void;
  /** Offers the page sizes of spec 000 §9; absent when the api's page size is fixed. */
  onPageSize?: (pageSize: number) => void;
}

export interface ListTableProps<Row> {
  /** Heading of the list (h2); also names the table. */
  title: string;
  /** Keeps the heading for screen readers only, where the page title already says it. */
  hideTitle?: boolean;
  subtitle?: ReactNode;
  rows: readonly Row[];
  rowId: (row: Row) => string;
  /** Names a row on its selection checkbox ('Select {label}'); default its id. */
  rowLabel?: (row: Row) => string;
  /** Names a row that opens, for screen readers (e.g. 'Open ticket …'). */
  rowName?: (row: Row) => string;
  columns: readonly ListColumn<Row>[];
  /** Shown instead of rows when there are none. */
  emptyText: string;
  loading?: boolean;
  /** Buttons beside the filter, e.g. New or Delete. */
  actions?: ReactNode;
  selection?: ListSelection;
  /** Row click, or Enter on a focused row, opens it. */
  onOpen?: (row: Row) => void;
  /** A Filter box: 'client' filters the rows here; a controlled box means the rows arrive filtered. */
  filter?: 'client' | { value: string; onChange: (value: string) => void };
  /** The 'Columns' menu. */
  columnChooser?: boolean;
  /** Sorting by clicking a header; `initialSort` also turns it on. */
  sortable?: boolean;
  initialSort?: { columnId: string; direction: SortDirection };
  /** 'client': pages of 10 with the sizes of spec 000 §9; ServerPaging: pages from the api; absent: every row. */
  paging?: 'client' | ServerPaging;
  /** Page sizes a client-paged list offers, when not those of spec 000 §9. */
  pageSizes?: readonly number[];
}

/**
 * The one list of the app (spec 000 §9): heading, Filter box, column chooser, sortable headers, selectable and
 * openable rows, and the pager. Filtering, sorting and client paging run over all rows, so sorting is never
 * limited to the visible page.
 */
export function ListTable<Row>(props: ListTableProps<Row>) {
  const { title, hideTitle, subtitle, rowId, rowLabel, rowName, emptyText, loading = false, actions, selection, onOpen, filter, paging, pageSizes } = props;
  const titleId = useId();
  const subtitleId = useId();
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const [sort, setSort] = useState(props.initialSort ?? null);
  const sortable = props.sortable ?? props.initialSort !== undefined;
  const [localQuery, setLocalQuery] = useState('');
  const [pageSize, setPageSize] = useState<number>(DEFAULT_PAGE_SIZE);
  const [pageIndex, setPageIndex] = useState(0);

  const columns = props.columns.filter((c) => !hidden.has(c.id));
  const query = typeof filter === 'object' ? filter.value : localQuery;
  const shown = useMemo(() => {
    const visible = props.columns.filter((c) => !hidden.has(c.id));
    const matching = filter === 'client' ? filterRows(props.rows, query, (row) => visible.map((c) => c.text(row)).join(' ')) : [...props.rows];
    const column = sort ? props.columns.find((c) => c.id === sort.columnId) : undefined;
    return sort && column ? sortRows(matching, column.sortValue ?? column.text, sort.direction) : matching;
  }, [props.rows, props.columns, hidden, filter, query, sort]);
  const page = paging === 'client' ? pageOf(shown, pageIndex, pageSize) : { rows: shown, pageIndex };
  const resize = (size: number) => {
    setPageSize(size);
    setPageIndex(0);
  };
  const pager = paging === 'client' ? { total: shown.length, pageIndex: page.pageIndex, pageSize, onPage: setPageIndex, onPageSize: resize } : paging;

  const ids = page.rows.map(rowId);
  const chosen = selection ? ids.filter((id) => selection.selected.has(id)) : [];
  const allChosen = ids.length > 0 && chosen.length === ids.length;
  function choose(changes: readonly string[], on: boolean) {
    if (!selection) return;
    const next = new Set(selection.selected);
    for (const id of changes) {
      if (on) next.add(id);
      else next.delete(id);
    }
    selection.onChange(next);
  }
  function onRowKey(event: KeyboardEvent<HTMLTableRowElement>, row: Row) {
    if (event.target !== event.currentTarget) return;
    const id = rowId(row);
    if (event.key === ' ' && selection) choose([id], !selection.selected.has(id));
    else if ((event.key === 'Enter' || event.key === ' ') && onOpen) onOpen(row);
    else return;
    event.preventDefault();
  }

  const template = [selection ? 'min-content' : null, ...columns.map((c) => c.width ?? 'minmax(max-content, 1fr)')].filter(Boolean).join(' ');
  const emptyMessage = loading ? 'Loading…' : props.rows.length > 0 || query ? 'No rows match the filter' : emptyText;

  return (
    <Table.Container className={styles.container}>
      {hideTitle ? (
        <VisuallyHidden>
          <h2 id={titleId}>{title}</h2>
        </VisuallyHidden>
      ) : (
        <Table.Title as="h2" id={titleId}>
          {title}
        </Table.Title>
      )}
      {subtitle ? (
        <Table.Subtitle as="p" id={subtitleId} className={styles.subtitle}>
          {subtitle}
        </Table.Subtitle>
      ) : null}
      <Table.Actions>
        <div className={styles.actions}>
          {filter ? (
            <TextInput
              aria-label={`Filter ${title}`}
              placeholder="Filter"
              leadingVisual={SearchIcon}
              value={query}
              onChange={(e) => {
                if (typeof filter === 'object') filter.onChange(e.target.value);
                else setLocalQuery(e.target.value);
                setPageIndex(0);
              }}
            />
          ) : null}
          {props.columnChooser ? <ColumnChooser columns={props.columns} hidden={hidden} onChange={setHidden} /> : null}
          {actions}
        </div>
      </Table.Actions>
      {/* a table wider than a phone scrolls inside its box, not the page; focusable so the keyboard can scroll it */}
      <div className={styles.scroll} tabIndex={0} data-testid="list-scroll">
        <Table aria-labelledby={titleId} aria-describedby={subtitle ? subtitleId : undefined} gridTemplateColumns={template} cellPadding="condensed">
          <Table.Head>
            <Table.Row>
              {selection ? (
                <Table.Header>
                  <Checkbox
                    aria-label="Select all rows on this page"
                    checked={allChosen}
                    indeterminate={chosen.length > 0 && !allChosen}
                    onChange={(e) => choose(ids, e.target.checked)}
                  />
                </Table.Header>
              ) : null}
              {columns.map((c) =>
                sortable && c.sortable !== false ? (
                  <SortHeader key={c.id} column={c} sort={sort} onSort={setSort} />
                ) : (
                  <Table.Header key={c.id} align={c.align}>
                    {c.header}
                  </Table.Header>
                ),
              )}
            </Table.Row>
          </Table.Head>
          <Table.Body>
            {page.rows.map((row, i) => {
              const id = ids[i]!;
              return (
                <Table.Row
                  key={id}
                  className={clsx(onOpen && styles.openable)}
                  tabIndex={onOpen || selection ? 0 : undefined}
                  aria-label={rowName?.(row)}
                  aria-selected={selection ? selection.selected.has(id) : undefined}
                  onClick={onOpen ? () => onOpen(row) : undefined}
                  onKeyDown={(e) => onRowKey(e, row)}
                >
                  {selection ? (
                    <Table.Cell onClick={(e) => e.stopPropagation()}>
                      <Checkbox
                        aria-label={`Select ${rowLabel ? rowLabel(row) : id}`}
                        checked={selection.selected.has(id)}
                        onChange={(e) => choose([id], e.target.checked)}
                      />
                    </Table.Cell>
                  ) : null}
                  {columns.map((c, j) => (
                    <Table.Cell key={c.id} align={c.align} scope={j === 0 ? 'row' : undefined}>
                      {c.render ? c.render(row) : c.text(row)}
                    </Table.Cell>
                  ))}
                </Table.Row>
              );
            })}
          </Table.Body>
        </Table>
      </div>
      <div className={styles.footer}>
        {page.rows.length === 0 ? <p className={styles.empty}>{emptyMessage}</p> : null}
        {pager && pager.total > 0 ? <Pager {...pager} pageSizes={pageSizes} /> : null}
      </div>
    </Table.Container>
  );
}

/** A header that sorts its column: ascending first, then toggling. */
function SortHeader<Row>({
  column,
  sort,
  onSort,
}: {
  column: ListColumn<Row>;
  sort: { columnId: string; direction: SortDirection } | null;
  onSort: (sort: { columnId: string; direction: SortDirection }) => void;
}) {
  const direction = sort?.columnId === column.id ? sort.direction : null;
  const next: SortDirection = direction === 'ASC' ? 'DESC' : 'ASC';
  const Icon = direction === 'DESC' ? SortDescIcon : SortAscIcon;
  return (
    <Table.Header align={column.align} aria-sort={direction === 'ASC' ? 'ascending' : direction === 'DESC' ? 'descending' : 'none'}>
      <button type="button" className={styles.sortButton} onClick={() => onSort({ columnId: column.id, direction: next })}>
        {column.header}
        <Icon className={clsx(styles.sortIcon, !direction && styles.sortIdle)} />
      </button>
    </Table.Header>
  );
}
