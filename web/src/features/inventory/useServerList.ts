import { useEffect, useState } from 'react';
import { DEFAULT_PAGE_SIZE } from '../../common/list/list-table.ts';

const FILTER_DELAY_MS = 300;

/**
 * State of one server-paged inventory table: the Filter box (sent to the api a moment after typing stops; it may start
 * filled), the page,
 * and a selection that survives paging (the rows are kept, since another page's rows are not in memory).
 */
export function useServerList<Row>(rowId: (row: Row) => string, scope: string, initialFilter = '') {
  // a filter the page was opened with (a graph node's "Show in list") applies at once, without the typing delay
  const [filter, setFilter] = useState(initialFilter);
  const [search, setSearch] = useState(initialFilter.trim());
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState<number>(DEFAULT_PAGE_SIZE);
  const [selected, setSelected] = useState<Map<string, Row>>(new Map());
  const [scopeSeen, setScopeSeen] = useState(scope);
  // another customer picked in the header: a fresh list
  if (scopeSeen !== scope) {
    setScopeSeen(scope);
    setFilter('');
    setSearch('');
    setPage(0);
    setSelected(new Map());
  }
  useEffect(() => {
    const timer = window.setTimeout(() => {
      setSearch(filter.trim());
      setPage(0);
    }, FILTER_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [filter]);

  return {
    query: { offset: page * pageSize, limit: pageSize, ...(search ? { search } : {}) },
    filter: { value: filter, onChange: setFilter },
    paging: (total: number) => ({
      pageIndex: page,
      pageSize,
      total,
      onPage: setPage,
      onPageSize: (size: number) => {
        setPageSize(size);
        setPage(0);
      },
    }),
    selectedRows: [...selected.values()],
    clearSelection: () => setSelected(new Map()),
    selection: (rows: readonly Row[]) => ({
      selected: new Set(selected.keys()),
      onChange: (ids: Set<string>) => {
        const next = new Map([...selected].filter(([id]) => ids.has(id)));
        for (const row of rows) if (ids.has(rowId(row))) next.set(rowId(row), row);
        setSelected(next);
      },
    }),
  };
}
