import { useId, useMemo, useState, type ReactNode } from 'react';
import { ActionList, ActionMenu, Checkbox, Heading, Select, TextInput } from '@primer/react';
import { DataTable, Table, type Column } from '@primer/react/experimental';
import { ColumnsIcon, SearchIcon } from '@primer/octicons-react';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES, filterRows, pageOf, sortRows, type SortDirection, type SortValue } from './list-table.ts';
import styles from './ListTable.module.css';

/** One column of a `ListTable`. */
export interface ListColumn<Row> {
  id: string;
  header: string;
  /** The cell as text: shown (unless `render` is given), matched by the filter, and sorted on. */
  text: (row: Row) => string;
  /** What the column sorts by, when not its text (e.g. a number). */
  sortValue?: (row: Row) => SortValue;
  render?: (row: Row) => ReactNode;
  align?: 'start' | 'end';
  /** Sortable by clicking the header (default true). */
  sortable?: boolean;
}

/** Row selection, owned by the caller (it acts on the selected ids). */
export interface ListSelection {
  selected: ReadonlySet<string>;
  onChange: (selected: Set<string>) => void;
}

export interface ListTableProps<Row> {
  /** The table heading (e.g. the date and billing account). */
  title: ReactNode;
  subtitle?: ReactNode;
  rows: readonly Row[];
  rowId: (row: Row) => string;
  /** Names a row for screen readers on its selection checkbox. */
  rowLabel?: (row: Row) => string;
  columns: readonly ListColumn<Row>[];
  /** Shown instead of rows when there are none. */
  emptyText: string;
  loading?: boolean;
  selection?: ListSelection;
  /** Buttons beside the filter, e.g. "Delete". */
  actions?: ReactNode;
  initialSort?: { columnId: string; direction: SortDirection };
}

interface Wrapped<Row> {
  id: string;
  row: Row;
}

/**
 * A list with the behaviour spec 000 expects of every table: filtering, a column chooser, sorting and
 * paging (10, 100, 200, 500 with a row count text, spec 000 §9), optionally selectable rows.
 * Built on Primer's DataTable; filtering, sorting and paging happen here over all rows, so sorting is
 * never limited to the visible page.
 */
export function ListTable<Row>({
  title,
  subtitle,
  rows,
  rowId,
  rowLabel,
  columns,
  emptyText,
  loading = false,
  selection,
  actions,
  initialSort,
}: ListTableProps<Row>) {
  const titleId = useId();
  const subtitleId = useId();
  const [query, setQuery] = useState('');
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const [sort, setSort] = useState(initialSort ?? null);
  const [pageSize, setPageSize] = useState<number>(DEFAULT_PAGE_SIZE);
  const [pageIndex, setPageIndex] = useState(0);

  const visibleColumns = columns.filter((c) => !hidden.has(c.id));
  const filtered = useMemo(() => {
    const shown = columns.filter((c) => !hidden.has(c.id));
    const matching = filterRows(rows, query, (row) => shown.map((c) => c.text(row)).join(' '));
    const column = sort ? columns.find((c) => c.id === sort.columnId) : undefined;
    if (!sort || !column) return matching;
    return sortRows(matching, column.sortValue ?? column.text, sort.direction);
  }, [rows, query, columns, hidden, sort]);
  const page = pageOf(filtered, pageIndex, pageSize);
  const data: Wrapped<Row>[] = page.rows.map((row) => ({ id: rowId(row), row }));

  const tableColumns: Column<Wrapped<Row>>[] = visibleColumns.map((c) => ({
    id: c.id,
    header: c.header,
    align: c.align,
    sortBy: c.sortable === false ? undefined : true,
    renderCell: (d) => (c.render ? c.render(d.row) : c.text(d.row)),
  }));
  if (selection) tableColumns.unshift(selectionColumn(selection, data, rowLabel));

  return (
    <section className={styles.container} aria-labelledby={titleId}>
      <div className={styles.header}>
        <div>
          <Heading as="h2" id={titleId} className={styles.title}>
            {title}
          </Heading>
          {subtitle ? (
            <p id={subtitleId} className={styles.subtitle}>
              {subtitle}
            </p>
          ) : null}
        </div>
        <div className={styles.toolbar}>
          <TextInput
            aria-label="Filter"
            placeholder="Filter"
            leadingVisual={SearchIcon}
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              setPageIndex(0);
            }}
          />
          <ColumnChooser columns={columns} hidden={hidden} onChange={setHidden} />
          {actions}
        </div>
      </div>
      {loading ? (
        <Table.Skeleton aria-labelledby={titleId} columns={tableColumns} rows={3} />
      ) : (
        <DataTable
          aria-labelledby={titleId}
          aria-describedby={subtitle ? subtitleId : undefined}
          data={data}
          columns={tableColumns}
          cellPadding="condensed"
          externalSorting
          initialSortColumn={sort?.columnId}
          initialSortDirection={sort?.direction}
          onToggleSort={(columnId, direction) => setSort({ columnId: String(columnId), direction })}
        />
      )}
      {!loading && filtered.length === 0 ? <p className={styles.empty}>{rows.length === 0 ? emptyText : 'No rows match the filter'}</p> : null}
      {!loading ? (
        <Paging
          key={`${pageSize}-${filtered.length}-${query}`}
          total={filtered.length}
          pageSize={pageSize}
          pageIndex={page.pageIndex}
          onPageSize={(size) => {
            setPageSize(size);
            setPageIndex(0);
          }}
          onPage={setPageIndex}
        />
      ) : null}
    </section>
  );
}

function selectionColumn<Row>(selection: ListSelection, data: Wrapped<Row>[], rowLabel?: (row: Row) => string): Column<Wrapped<Row>> {
  const ids = data.map((d) => d.id);
  const chosen = ids.filter((id) => selection.selected.has(id));
  const allOnPage = ids.length > 0 && chosen.length === ids.length;
  const toggle = (id: string, on: boolean) => {
    const next = new Set(selection.selected);
    if (on) next.add(id);
    else next.delete(id);
    selection.onChange(next);
  };
  return {
    id: 'select',
    width: 'auto',
    header: () => (
      <Checkbox
        aria-label="Select all rows on this page"
        checked={allOnPage}
        indeterminate={chosen.length > 0 && !allOnPage}
        onChange={(e) => {
          const next = new Set(selection.selected);
          for (const id of ids) {
            if (e.target.checked) next.add(id);
            else next.delete(id);
          }
          selection.onChange(next);
        }}
      />
    ),
    renderCell: (d) => (
      <Checkbox
        aria-label={`Select ${rowLabel ? rowLabel(d.row) : d.id}`}
        checked={selection.selected.has(d.id)}
        onChange={(e) => toggle(d.id, e.target.checked)}
      />
    ),
  };
}

function ColumnChooser<Row>({
  columns,
  hidden,
  onChange,
}: {
  columns: readonly ListColumn<Row>[];
  hidden: ReadonlySet<string>;
  onChange: (hidden: ReadonlySet<string>) => void;
}) {
  return (
    <ActionMenu>
      <ActionMenu.Button leadingVisual={ColumnsIcon}>Columns</ActionMenu.Button>
      <ActionMenu.Overlay>
        <ActionList selectionVariant="multiple" aria-label="Columns shown">
          {columns.map((c) => {
            const shown = !hidden.has(c.id);
            // At least one column stays visible.
            const last = shown && columns.length - hidden.size === 1;
            return (
              <ActionList.Item
                key={c.id}
                selected={shown}
                disabled={last}
                onSelect={(e) => {
                  // Keep the menu open so several columns can be toggled in one go.
                  e.preventDefault();
                  const next = new Set(hidden);
                  if (shown) next.add(c.id);
                  else next.delete(c.id);
                  onChange(next);
                }}
              >
                {c.header}
              </ActionList.Item>
            );
          })}
        </ActionList>
      </ActionMenu.Overlay>
    </ActionMenu>
  );
}

function Paging({
  total,
  pageSize,
  pageIndex,
  onPageSize,
  onPage,
}: {
  total: number;
  pageSize: number;
  pageIndex: number;
  onPageSize: (size: number) => void;
  onPage: (index: number) => void;
}) {
  const sizeId = useId();
  return (
    <div className={styles.paging}>
      {total > 0 ? (
        <Table.Pagination
          aria-label="Pagination"
          totalCount={total}
          pageSize={pageSize}
          defaultPageIndex={pageIndex}
          onChange={({ pageIndex: next }) => onPage(next)}
        />
      ) : (
        <p className={styles.count}>0 rows</p>
      )}
      <div className={styles.pageSize}>
        <label htmlFor={sizeId}>Rows per page</label>
        <Select id={sizeId} value={String(pageSize)} onChange={(e) => onPageSize(Number(e.target.value))}>
          {PAGE_SIZES.map((n) => (
            <Select.Option key={n} value={String(n)}>
              {n}
            </Select.Option>
          ))}
        </Select>
      </div>
    </div>
  );
}
