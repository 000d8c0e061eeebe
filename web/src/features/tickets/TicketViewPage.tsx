import { useState } from 'react';
import { Banner, Button, Heading } from '@primer/react';
import { ArrowLeftIcon } from '@primer/octicons-react';
import { useLocation } from 'wouter';
import type { PageProps } from '../../app/route-types.ts';
import { errorDetail } from '../../common/api-error.ts';
import { Page, PageLoading } from '../../common/Page.tsx';
import { AttachmentsSection } from './AttachmentsSection.tsx';
import { CommentsSection } from './CommentsSection.tsx';
import { SatisfactionSection } from './SatisfactionSection.tsx';
import { StatusLabel } from './TicketLabels.tsx';
import { TicketSidePanel } from './TicketSidePanel.tsx';
import { useGetTicketQuery } from './ticketsApi.ts';
import { PENDING_POLL_MS } from './ticket-rules.ts';
import styles from './tickets.module.css';

/** One ticket (spec 000 §2 /supportrequest/view/{id}). */
export function TicketViewPage({ route, params }: PageProps) {
  const [, navigate] = useLocation();
  const id = params.id ?? '';
  const [pending, setPending] = useState(false);
  // Re-read while the ticket-sync queue has not written a ticket to Jira yet: its key appears by itself.
  const pollingInterval = pending ? PENDING_POLL_MS : 0;
  const { data: ticket, error, isLoading } = useGetTicketQuery(id, { skip: !id, pollingInterval });
  const isPending = ticket?.sync_state === 'pending';
  if (isPending !== pending) setPending(isPending);

  const back = (
    <div className={styles.toolbar}>
      <Button leadingVisual={ArrowLeftIcon} onClick={() => navigate('/supportrequest')}>
        Back
      </Button>
    </div>
  );

  if (isLoading) return <PageLoading label="Loading ticket" />;
  if (!ticket) {
    return (
      <Page title={route.title} subtitle={id}>
        {back}
        <div role="alert">
          <Banner variant="critical" title="The ticket could not be loaded" description={errorDetail(error) ?? 'Please try again.'} />
        </div>
      </Page>
    );
  }

  return (
    <Page title={route.title} subtitle={`${ticket.jira_issue_key ?? 'Not yet in Jira'} · ${ticket.customer_name}`}>
      {back}
      {ticket.sync_state === 'failed' ? (
        <Banner
          variant="warning"
          title="This ticket has not reached the support team's system yet"
          description={ticket.sync_error ?? 'It will be sent again automatically.'}
        />
      ) : null}
      <div className={styles.layout}>
        <div className={styles.main}>
          <section className={styles.section} aria-labelledby="ticket-summary">
            <div className={styles.sectionHead}>
              <Heading as="h2" id="ticket-summary" className={styles.sectionTitle}>
                {ticket.summary}
              </Heading>
              <StatusLabel status={ticket.status} />
            </div>
            <p className={styles.description}>{ticket.description}</p>
          </section>
          <AttachmentsSection ticket={ticket} />
          {ticket.status === 'Closed' ? <SatisfactionSection ticket={ticket} /> : null}
          <CommentsSection ticket={ticket} />
        </div>
        <TicketSidePanel ticket={ticket} />
      </div>
    </Page>
  );
}
