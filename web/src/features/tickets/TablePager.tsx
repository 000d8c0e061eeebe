import { useId } from 'react';
import { IconButton, Select } from '@primer/react';
import { ChevronLeftIcon, ChevronRightIcon } from '@primer/octicons-react';
import styles from './tickets.module.css';

/** Spec 000 §9: page size 10, options 10, 100, 200, 500, with a row count text. */
export const PAGE_SIZES = [10, 100, 200, 500] as const;

export interface TablePagerProps {
  total: number;
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
  onPageSize: (pageSize: number) => void;
}

/** Rows per page, the "1–10 of 23" count and previous / next page. */
export function TablePager({ total, page, pageSize, onPage, onPageSize }: TablePagerProps) {
  const sizeId = useId();
  const first = total === 0 ? 0 : page * pageSize + 1;
  const last = Math.min(total, (page + 1) * pageSize);
  const lastPage = Math.max(0, Math.ceil(total / pageSize) - 1);
  return (
    <nav className={styles.pager} aria-label="Pagination">
      <div className={styles.pagerSize}>
        <label htmlFor={sizeId}>Rows per page</label>
        <Select id={sizeId} value={String(pageSize)} onChange={(e) => onPageSize(Number(e.target.value))}>
          {PAGE_SIZES.map((n) => (
            <Select.Option key={n} value={String(n)}>
              {n}
            </Select.Option>
          ))}
        </Select>
      </div>
      <span aria-live="polite">
        {first}–{last} of {total}
      </span>
      <IconButton icon={ChevronLeftIcon} aria-label="Previous page" disabled={page === 0} onClick={() => onPage(page - 1)} />
      <IconButton icon={ChevronRightIcon} aria-label="Next page" disabled={page >= lastPage} onClick={() => onPage(page + 1)} />
    </nav>
  );
}
