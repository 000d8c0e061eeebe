import { useState } from 'react';
import type { ServerPaging } from './ListTable.tsx';
import { DEFAULT_PAGE_SIZE } from './list-table.ts';

/**
 * Page and page size of a list paged on the server, for the list of `owner` (a customer, a domain): back to the first
 * page when the owner changes. `pager(total)` turns the answer's total (undefined while none has come) into the table's
 * pager; a page emptied by changes elsewhere falls back to the last one that has rows.
 */
export function useServerPaging(owner: string | undefined, firstPageSize: number = DEFAULT_PAGE_SIZE) {
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState<number>(firstPageSize);
  const [pagedFor, setPagedFor] = useState(owner);
  if (pagedFor !== owner) {
    setPagedFor(owner);
    setPage(0);
  }
  const pager = (total: number | undefined): ServerPaging => {
    const lastPage = Math.max(0, Math.ceil((total ?? 0) / pageSize) - 1);
    if (total !== undefined && page > lastPage) setPage(lastPage);
    return {
      pageIndex: page,
      pageSize,
      total: total ?? 0,
      onPage: setPage,
      onPageSize: (size) => {
        setPageSize(size);
        setPage(0);
      },
    };
  };
  return { page, pageSize, pager };
}
