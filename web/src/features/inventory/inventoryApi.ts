import type {
  AssetListQuery,
  AssetPage,
  InventoryGraph,
  InventoryNode,
  InventorySyncStatus,
  RecommendationListQuery,
  RecommendationPage,
} from '@cc/shared/schemas/inventory.ts';
import { api } from '../../app/api.ts';

const base = (customer: string) => `/v1/asset-inventory/${encodeURIComponent(customer)}`;
const tag = (customer: string) => [{ type: 'Inventory' as const, id: customer }];

/** The asset inventory (spec 000 §2 /inventory, 001 §7 visualize and node): pages, graph, node, sync status. */
export const inventoryApi = api.injectEndpoints({
  endpoints: (build) => ({
    listAssets: build.query<AssetPage, { customer: string; query: AssetListQuery }>({
      query: ({ customer, query }) => ({ url: `${base(customer)}/assets`, params: query }),
      providesTags: (_r, _e, { customer }) => tag(customer),
    }),
    listRecommendations: build.query<RecommendationPage, { customer: string; query: RecommendationListQuery }>({
      query: ({ customer, query }) => ({ url: `${base(customer)}/recommendations`, params: query }),
      providesTags: (_r, _e, { customer }) => tag(customer),
    }),
    inventoryGraph: build.query<InventoryGraph, string>({
      query: (customer) => `${base(customer)}/visualize/`,
      providesTags: (_r, _e, customer) => tag(customer),
    }),
    /** `nodeId` already encoded (`/` → `*`). */
    inventoryNode: build.query<InventoryNode, { customer: string; nodeId: string }>({
      query: ({ customer, nodeId }) => `${base(customer)}/node/${encodeURIComponent(nodeId)}`,
    }),
    inventorySync: build.query<InventorySyncStatus, string>({
      query: (customer) => `${base(customer)}/sync`,
      providesTags: (_r, _e, customer) => tag(customer),
    }),
    // The status is read again at once (it may already say running, or done for a quick sync); the page then
    // follows the run until it ends and refreshes the tables (InventoryPage).
    runInventorySync: build.mutation<{ job_id: string }, string>({
      query: (customer) => ({ url: `${base(customer)}/sync`, method: 'POST' }),
      invalidatesTags: (_r, _e, customer) => tag(customer),
    }),
  }),
});

export const {
  useListAssetsQuery,
  useListRecommendationsQuery,
  useInventoryGraphQuery,
  useLazyInventoryNodeQuery,
  useInventorySyncQuery,
  useRunInventorySyncMutation,
} = inventoryApi;
