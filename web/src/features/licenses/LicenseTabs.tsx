import { Button } from '@primer/react';
import { useLocation } from 'wouter';
import type { HistoryRecord, License, LicenseOrder } from '@cc/shared/schemas/licenses.ts';
import { LICENSE_PAGE_SIZES } from '@cc/shared/licenses/rules.ts';
import { ListTable, type ListColumn } from '../../common/list/ListTable.tsx';
import { useServerPaging } from '../../common/list/useServerPaging.ts';
import { formatTimestampWithZone } from '../../common/dates.ts';
import { useGetLicenseHistoryQuery, useGetLicensesQuery, useGetOrdersQuery } from './licensesApi.ts';
import styles from './Licenses.module.css';

/** The auto-order worker places orders in the background: the lists look again now and then. */
const POLL_MS = 5000;

/** `onOrder` absent: the user only reads (no Update or Order buttons). */
export function ExistingTab({ domain, onOrder }: { domain: string; onOrder?: (license: License) => void }) {
  const [, navigate] = useLocation();
  const { data = [], isLoading } = useGetLicensesQuery(domain, { pollingInterval: POLL_MS });
  const columns: ListColumn<License>[] = [
    { id: 'sku_name', header: 'SKU Name', text: (l) => l.sku_name },
    { id: 'sku_id', header: 'SKU Id', text: (l) => l.sku_id },
    { id: 'volume_total', header: 'Total', text: (l) => String(l.volume_total), sortValue: (l) => l.volume_total, align: 'end' },
    { id: 'volume_available', header: 'Available', text: (l) => String(l.volume_available), sortValue: (l) => l.volume_available, align: 'end' },
    { id: 'threshold', header: 'Threshold', text: (l) => String(l.threshold), sortValue: (l) => l.threshold, align: 'end' },
    { id: 'auto_order', header: 'Auto Order', text: (l) => (l.auto_order ? 'On' : 'Off') },
    { id: 'new_order', header: 'New Order', text: (l) => (l.auto_order ? String(l.new_order) : ''), align: 'end' },
  ];
  if (onOrder) {
    columns.push({
      id: 'actions',
      header: 'Actions',
      sortable: false,
      text: () => '',
      render: (l) => (
        <span className={styles.rowButtons}>
          <Button size="small" onClick={() => navigate('/workspacelicense/license', { state: { license: l } })} aria-label={`Update ${l.sku_name}`}>
            Update
          </Button>
          <Button size="small" onClick={() => onOrder(l)} aria-label={`Order ${l.sku_name}`}>
            Order
          </Button>
        </span>
      ),
    });
  }
  return (
    <ListTable title="Existing" hideTitle rows={data} rowId={(l) => l.sku_id} columns={columns} emptyText="No licenses yet" loading={isLoading} paging="client" pageSizes={LICENSE_PAGE_SIZES} sortable />
  );
}

const NO_ORDERS: LicenseOrder[] = [];
const NO_HISTORY: HistoryRecord[] = [];

export function OrdersTab({ customerId }: { customerId: string }) {
  const [, navigate] = useLocation();
  const paging = useServerPaging(customerId, LICENSE_PAGE_SIZES[0]);
  const { currentData, isFetching } = useGetOrdersQuery({ customer: customerId, page: paging.page, pageSize: paging.pageSize }, { pollingInterval: POLL_MS });
  const columns: ListColumn<LicenseOrder>[] = [
    { id: 'order_time', header: 'Order Time', text: (o) => formatTimestampWithZone(o.order_time), sortValue: (o) => o.order_time },
    { id: 'sku_name', header: 'SKU Name', text: (o) => o.sku_name },
    { id: 'order_amount', header: 'Amount', text: (o) => String(o.order_amount), sortValue: (o) => o.order_amount, align: 'end' },
    { id: 'order_by', header: 'Order By', text: (o) => o.order_by },
    { id: 'status', header: 'Status', text: (o) => o.status },
    { id: 'comment', header: 'Comment', text: (o) => o.comment, width: 'minmax(12rem, 2fr)' },
    {
      id: 'manage',
      header: 'Actions',
      sortable: false,
      text: () => '',
      render: (o) => (
        <Button size="small" onClick={() => navigate('/workspacelicense/order', { state: { order: o } })} aria-label={`Manage Order ${o.order_id}`}>
          Manage Order
        </Button>
      ),
    },
  ];
  return (
    <ListTable
      title="Orders"
      hideTitle
      rows={currentData?.rows ?? NO_ORDERS}
      rowId={(o) => o.order_id}
      columns={columns}
      emptyText="No orders"
      loading={isFetching && !currentData}
      paging={paging.pager(currentData?.total)}
      pageSizes={LICENSE_PAGE_SIZES}
    />
  );
}

/** One change as a line: 'threshold: 5 → 10', 'order: Pending → Approved (4 seats)'. */
export function describeUpdate(u: HistoryRecord['updates'][number]): string {
  const show = (v: unknown) => (v === null || v === undefined ? '–' : String(v));
  if (u.field === 'created') return `created ${show(u.to)}`;
  const seats = u.order_amount ? ` (${u.order_amount} seats)` : '';
  return `${u.field}: ${show(u.from)} → ${show(u.to)}${seats}`;
}

export function HistoryTab({ domain }: { domain: string }) {
  const paging = useServerPaging(domain, LICENSE_PAGE_SIZES[0]);
  const { currentData, isFetching } = useGetLicenseHistoryQuery({ domain, page: paging.page, pageSize: paging.pageSize }, { pollingInterval: POLL_MS });
  const columns: ListColumn<HistoryRecord>[] = [
    { id: 'date', header: 'Date', text: (h) => formatTimestampWithZone(h.date), sortValue: (h) => h.date },
    { id: 'sku_name', header: 'SKU Name', text: (h) => h.sku_name },
    { id: 'changed_by', header: 'By', text: (h) => h.changed_by },
    { id: 'updates', header: 'Updates', text: (h) => h.updates.map(describeUpdate).join('; '), width: 'minmax(16rem, 3fr)' },
  ];
  return (
    <ListTable
      title="History"
      hideTitle
      rows={currentData?.rows ?? NO_HISTORY}
      rowId={(h) => h.id}
      columns={columns}
      emptyText="No history yet"
      loading={isFetching && !currentData}
      paging={paging.pager(currentData?.total)}
      pageSizes={LICENSE_PAGE_SIZES}
    />
  );
}
