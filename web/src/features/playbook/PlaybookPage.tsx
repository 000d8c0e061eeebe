import type { PlaybookDocument } from '@cc/shared/schemas/playbook.ts';
import { useGetPlaybookQuery } from './playbookApi.ts';
import type { PageProps } from '../../app/route-types.ts';
import { useSelectedCustomer } from '../../app/selection/useCustomerContext.ts';
import { errorDetail } from '../../common/api-error.ts';
import { Page, PageMessage } from '../../common/Page.tsx';
import { ListTable, type ListColumn } from '../../common/list/ListTable.tsx';

const columns: ListColumn<PlaybookDocument>[] = [
  {
    id: 'name',
    header: 'Name',
    text: (d) => d.name,
    // A link, so the preview opens in a new tab as the spec says and the browser's own link behaviour still works.
    render: (d) => (
      <a href={previewUrl(d)} target="_blank" rel="noopener noreferrer">
        {d.name}
      </a>
    ),
  },
];

/**
 * Where a document opens: markdown served by the api (local playbooks) opens in the app, rendered (a browser would
 * show it as raw text); anything else at its own url (Drive's viewer, the api's file).
 */
export function previewUrl(d: PlaybookDocument): string {
  return d.url.startsWith('/v1/') && /\.md$/i.test(d.id) ? `/playbook/view/${encodeURIComponent(d.id)}` : d.url;
}

/** Playbook (spec 001 §2.11): the document names of the customer's drive folder; a click previews in a new tab. */
export function PlaybookPage({ route }: PageProps) {
  const { selected } = useSelectedCustomer();
  const { data = [], isLoading, error } = useGetPlaybookQuery(selected?.id ?? '', { skip: !selected });
  return (
    <Page title={route.title}>
      {error ? (
        <PageMessage>{errorDetail(error)}</PageMessage>
      ) : (
        <ListTable title="Documents" hideTitle rows={data} rowId={(d) => d.id} columns={columns} emptyText="No documents in the playbook folder" loading={isLoading} filter="client" />
      )}
    </Page>
  );
}
