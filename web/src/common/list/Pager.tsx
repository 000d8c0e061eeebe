import { useId } from 'react';
import { IconButton, Select } from '@primer/react';
import { ChevronLeftIcon, ChevronRightIcon } from '@primer/octicons-react';
import { PAGE_SIZES, pageRange } from './list-table.ts';
import styles from './ListTable.module.css';

export interface PagerProps {
  total: number;
  pageIndex: number;
  pageSize: number;
  onPage: (pageIndex: number) => void;
  /** Offers the page sizes of spec 000 §9; absent when the size is fixed (e.g. the server's). */
  onPageSize?: (pageSize: number) => void;
  /** The sizes offered; default those of spec 000 §9 (the license tables offer 10, 50, 100: spec 001 §9). */
  pageSizes?: readonly number[];
}

/** Rows per page, the '1–10 of 23' row count and previous / next page (spec 000 §9). */
export function Pager({ total, pageIndex, pageSize, onPage, onPageSize, pageSizes = PAGE_SIZES }: PagerProps) {
  const sizeId = useId();
  const { text, lastPage } = pageRange(total, pageIndex, pageSize);
  return (
    <nav className={styles.pager} aria-label="Pagination">
      {onPageSize ? (
        <div className={styles.pageSize}>
          <label htmlFor={sizeId}>Rows per page</label>
          <Select id={sizeId} value={String(pageSize)} onChange={(e) => onPageSize(Number(e.target.value))}>
            {pageSizes.map((n) => (
              <Select.Option key={n} value={String(n)}>
                {n}
              </Select.Option>
            ))}
          </Select>
        </div>
      ) : null}
      <span aria-live="polite">{text}</span>
      <IconButton icon={ChevronLeftIcon} aria-label="Previous page" disabled={pageIndex === 0} onClick={() => onPage(pageIndex - 1)} />
      <IconButton icon={ChevronRightIcon} aria-label="Next page" disabled={pageIndex >= lastPage} onClick={() => onPage(pageIndex + 1)} />
    </nav>
  );
}
