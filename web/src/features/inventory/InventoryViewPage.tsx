import { useState, type FormEvent } from 'react';
import { Banner, Button, FormControl, Heading, LinkButton, Select, TextInput } from '@primer/react';
import { ArrowLeftIcon, SearchIcon } from '@primer/octicons-react';
import { useLocation } from 'wouter';
import type { GraphNode, InventoryNode } from '@cc/shared/schemas/inventory.ts';
import { encodeNodeId } from '@cc/shared/inventory/graph.ts';
import type { PageProps } from '../../app/route-types.ts';
import { useSelectedCustomer } from '../../app/selection/useCustomerContext.ts';
import { Page, PageLoading, PageMessage } from '../../common/Page.tsx';
import { errorDetail } from '../../common/api-error.ts';
import { useSnackbar } from '../../common/Snackbar.tsx';
import { useCanChange } from '../../common/permissions.ts';
import { inventoryTicket } from './inventory-ticket.ts';
import { assetListHref } from './asset-link.ts';
import { useInventoryGraphQuery, useLazyInventoryNodeQuery } from './inventoryApi.ts';
import { GraphCanvas } from './GraphCanvas.tsx';
import { DAG_MODES, findNode, nodeColor, type DagMode, type GraphDimension } from './graph-view.ts';
import styles from './inventory.module.css';

const TABS: readonly GraphDimension[] = ['2d', '3d'];

/** /inventory/view (spec 001 §2.10): the inventory as a graph, searchable, in 2D or 3D, with a node's details. */
export function InventoryViewPage({ route }: PageProps) {
  const [, navigate] = useLocation();
  const { show } = useSnackbar();
  const { selected } = useSelectedCustomer();
  const customer = selected?.id ?? '';
  const { data: graph, error, isLoading } = useInventoryGraphQuery(customer, { skip: !customer });
  const [fetchNode] = useLazyInventoryNodeQuery();
  const [dimension, setDimension] = useState<GraphDimension>('2d');
  const [dagMode, setDagMode] = useState<DagMode>('td');
  const [search, setSearch] = useState('');
  const [focusId, setFocusId] = useState<string | null>(null);
  const [notFound, setNotFound] = useState(false);
  const [detail, setDetail] = useState<(InventoryNode & { id: string }) | null>(null);
  const canTicket = useCanChange('supportrequest_create');

  async function openNode(node: GraphNode) {
    const result = await fetchNode({ customer, nodeId: encodeNodeId(node.id) });
    if (result.data) setDetail({ ...result.data, id: node.id });
    else show({ message: 'error retrieving inventory node', variant: 'error' });
  }

  function onSearch(event: FormEvent) {
    event.preventDefault();
    const node = graph ? findNode(graph.nodes, search) : null;
    setNotFound(!node);
    if (!node) return;
    // finds and focuses (spec 001 §2.10); a click on the node then shows its details
    setFocusId(node.id);
  }

  return (
    <Page title={route.title} subtitle={selected ? `for ${selected.name}` : undefined}>
      <div className={styles.toolbar}>
        <Button leadingVisual={ArrowLeftIcon} onClick={() => navigate('/inventory')}>
          Back
        </Button>
        <form onSubmit={onSearch} className={styles.toolbar} role="search" aria-label="Asset search">
          <FormControl>
            <FormControl.Label visuallyHidden>Asset name</FormControl.Label>
            <TextInput leadingVisual={SearchIcon} placeholder="Asset name" value={search} onChange={(e) => setSearch(e.target.value)} />
            {notFound ? <FormControl.Validation variant="error">No asset of that name</FormControl.Validation> : null}
          </FormControl>
          <Button type="submit">Search</Button>
        </form>
        <FormControl>
          <FormControl.Label visuallyHidden>DAG orientation</FormControl.Label>
          <Select value={dagMode} title={DAG_MODES.find((m) => m.mode === dagMode)?.full} onChange={(e) => setDagMode(e.target.value as DagMode)}>
            {DAG_MODES.map((m) => (
              <Select.Option key={m.mode} value={m.mode} title={m.full} aria-label={m.full}>
                {m.label}
              </Select.Option>
            ))}
          </Select>
        </FormControl>
      </div>
      {error ? <Banner variant="critical" title="The inventory graph could not be loaded" description={errorDetail(error) ?? 'Please try again.'} /> : null}
      {isLoading || !customer ? (
        <PageLoading label="Loading inventory graph" />
      ) : graph && graph.nodes.length === 0 ? (
        <PageMessage>No inventory yet.</PageMessage>
      ) : graph ? (
        <div className={styles.view}>
          <div className={styles.graphColumn}>
            <div role="tablist" aria-label="Graph dimension" className={styles.tabs}>
              {TABS.map((d) => (
                <button key={d} type="button" role="tab" aria-selected={dimension === d} className={styles.tab} onClick={() => setDimension(d)}>
                  {d.toUpperCase()}
                </button>
              ))}
            </div>
            <div role="tabpanel" aria-label={dimension.toUpperCase()}>
              <GraphCanvas
                key={dimension}
                dimension={dimension}
                graph={graph}
                dagMode={dagMode}
                focusId={focusId}
                onNodeClick={(n) => void openNode(n)}
                onError={(message) => show({ message, variant: 'error' })}
              />
            </div>
            <GraphLegend modules={[...new Set(graph.nodes.map((n) => n.module))].sort()} />
          </div>
          {detail ? (
            <section className={styles.details} aria-label="Asset Details">
              <Heading as="h2" className={styles.detailsTitle}>
                Asset Details
              </Heading>
              <dl>
                <dt>Name</dt>
                <dd>{detail.name}</dd>
                <dt>Type</dt>
                <dd>{detail.asset_type}</dd>
                <dt>Location</dt>
                <dd>{detail.location ?? '-'}</dd>
              </dl>
              <div className={styles.detailActions}>
                <LinkButton
                  href={assetListHref(detail.id)}
                  onClick={(e: React.MouseEvent) => {
                    // in the app without reloading it; a middle click still opens a tab
                    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
                    e.preventDefault();
                    navigate(assetListHref(detail.id));
                  }}
                >
                  Show in inventory list
                </LinkButton>
                {canTicket ? (
                  // a node found in the graph leads to a ticket about it, as a selected row of /inventory does
                  <Button
                    onClick={() =>
                      navigate('/supportrequest/new', {
                        state: inventoryTicket([{ asset_name: detail.name, asset_type: detail.asset_type, project_id: '', location: detail.location, region: detail.location, violation_rule: null, display_name: detail.name, update_time: null }]),
                      })
                    }
                  >
                    Raise Ticket
                  </Button>
                ) : null}
              </div>
              <pre className={styles.json} aria-label="Asset data">
                {detail.data}
              </pre>
            </section>
          ) : (
            // the column the details will fill, saying how: an empty half page beside the graph said nothing
            <div className={styles.details} data-testid="asset-details-hint">
              <Heading as="h2" className={styles.detailsTitle}>
                Asset Details
              </Heading>
              <p className={styles.hint}>
                Click a node to see its name, type, location and data here, with Show in inventory list{canTicket ? ' and Raise Ticket' : ''}. Hover a node for its
                full name.
              </p>
            </div>
          )}
        </div>
      ) : null}
    </Page>
  );
}

/** What the node colours mean: one swatch per API module present in the graph. */
function GraphLegend({ modules }: { modules: string[] }) {
  return (
    <ul className={styles.legend} aria-label="Node colours">
      {modules.map((m) => (
        <li key={m}>
          <span className={styles.swatch} style={{ background: nodeColor(m) }} aria-hidden="true" />
          {m}
        </li>
      ))}
    </ul>
  );
}
