import { Banner, Spinner } from '@primer/react';
import type { PageProps } from '../../app/route-types.ts';
import { useSelectedCustomer } from '../../app/selection/useCustomerContext.ts';
import { errorDetail } from '../../common/api-error.ts';
import { Page } from '../../common/Page.tsx';
import { Markdown } from './markdown.tsx';
import { useGetPlaybookDocumentQuery } from './playbookApi.ts';
import styles from './Playbook.module.css';

/** A markdown document of the playbook, rendered (the Playbook list opens it in a new tab). */
export function PlaybookDocPage({ params }: PageProps) {
  const { selected } = useSelectedCustomer();
  const id = params.id ?? '';
  const { data, error, isLoading } = useGetPlaybookDocumentQuery({ customer: selected?.id ?? '', id }, { skip: !selected || !id });
  return (
    <Page title={id.replace(/\.[^.]+$/, '')} subtitle="Playbook">
      {isLoading ? <Spinner srText="Loading document" /> : null}
      {error ? <Banner variant="critical" title="The document could not be opened" description={errorDetail(error) ?? 'Please try again...'} /> : null}
      {data !== undefined ? (
        <article className={styles.document} data-testid="playbook-document">
          <Markdown source={data} />
        </article>
      ) : null}
    </Page>
  );
}
