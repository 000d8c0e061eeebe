import { useEffect } from 'react';
import { Banner } from '@primer/react';
import { useSearch } from 'wouter';
import type { InventoryItem } from '@cc/shared/schemas/inventory.ts';
import { ListTable, type ListColumn } from '../../common/list/ListTable.tsx';
import { errorDetail } from '../../common/api-error.ts';
import { useListAssetsQuery } from './inventoryApi.ts';
import { useServerList } from './useServerList.ts';
import { RaiseTicketButton } from './RaiseTicketButton.tsx';
import { inventoryTicket } from './inventory-ticket.ts';
import { assetFilterOf } from './asset-link.ts';
import type { NewTicketPrefill } from '../tickets/prefill.ts';
import { markDrawn } from '../../common/drawn.ts';

const NONE: readonly InventoryItem[] = [];

/** Spec 000 §3 Inventory item: asset_type, asset_name, project_id, region, violation_rule. */
const COLUMNS: readonly ListColumn<InventoryItem>[] = [
  { id: 'asset_type', header: 'Asset Type', width: 'max-content', text: (a) => a.asset_type },
  { id: 'asset_name', header: 'Asset Name', width: 'minmax(20rem, 2fr)', text: (a) => a.asset_name },
  { id: 'project_id', header: 'Project ID', width: 'max-content', text: (a) => a.project_id },
  { id: 'region', header: 'Region', width: 'max-content', text: (a) => a.region ?? '' },
  { id: 'violation_rule', header: 'Violation Rule', width: 'max-content', text: (a) => a.violation_rule ?? '' },
];

/** 'Google Cloud Inventory': filtered, ordered by asset name and paged by the api, so 100,000 assets stay fast. */
export function AssetTable({ customer, onTicket }: { customer: string; onTicket?: (prefill: NewTicketPrefill) => void }) {
  const initialFilter = assetFilterOf(useSearch());
  const list = useServerList<InventoryItem>((a) => a.asset_name, customer, initialFilter);
  const { data, error, isFetching } = useListAssetsQuery({ customer, query: list.query });
  const rows = data?.items ?? NONE;
  // after the commit that put the first page's rows in the table
  useEffect(() => {
    if (data) markDrawn('inventory-table');
  }, [data]);
  const count = list.selectedRows.length;
  return (
    <>
      {error ? <Banner variant="critical" title="The inventory could not be loaded" description={errorDetail(error) ?? 'Please try again.'} /> : null}
      <ListTable
        title="Google Cloud Inventory"
        rows={rows}
        rowId={(a) => a.asset_name}
        rowLabel={(a) => a.asset_name}
        columns={COLUMNS}
        emptyText="No assets."
        loading={isFetching && !data}
        filter={list.filter}
        columnChooser
        selection={list.selection(rows)}
        paging={list.paging(data?.total ?? 0)}
        actions={
          onTicket ? <RaiseTicketButton count={count} onClick={() => onTicket(inventoryTicket(list.selectedRows))} /> : null
        }
      />
    </>
  );
}
