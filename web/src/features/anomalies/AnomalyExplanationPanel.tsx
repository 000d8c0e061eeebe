import { Banner, Dialog, Heading, Spinner } from '@primer/react';
import { Link } from 'wouter';
import type { AnomalyContributor, AnomalyExplanation } from '@cc/shared/schemas/insights.ts';
import { errorDetail } from '../../common/api-error.ts';
import { formatMoney } from '../../common/numbers.ts';
import { formatTimestampWithZone } from '../../common/dates.ts';
import { useGetAnomalyExplanationQuery, type AnomalyExplanationQuery } from './anomaliesApi.ts';
import { contributorName, contributorShare, dimensionTitle } from './anomaly-format.ts';
import styles from './AnomalyExplanationPanel.module.css';

/**
 * Why one anomaly is one, in a side panel (full screen on a phone): the sentence, the drivers of each dimension (day,
 * mean and what each adds; the rest makes them add up to the rise) and what happened in the portal around the day.
 */
export function AnomalyExplanationPanel({ query, onClose }: { query: AnomalyExplanationQuery; onClose: () => void }) {
  const { currentData, isFetching, error } = useGetAnomalyExplanationQuery(query);
  return (
    <Dialog
      title={`${query.projectId} · ${query.service}`}
      subtitle={`Why is this an anomaly? ${query.date}`}
      position={{ narrow: 'fullscreen', regular: 'right' }}
      width="large"
      onClose={onClose}
    >
      {error ? (
        <div role="alert">
          <Banner variant="critical" title="The explanation could not be loaded" description={errorDetail(error) ?? 'Please try again...'} />
        </div>
      ) : !currentData || isFetching ? (
        <Spinner size="medium" srText="Loading the explanation" />
      ) : (
        <ExplanationBody e={currentData} />
      )}
    </Dialog>
  );
}

function ExplanationBody({ e }: { e: AnomalyExplanation }) {
  const dimensions = (['sku', 'resource', 'label'] as const).map((d) => e.contributors.filter((c) => c.dimension === d)).filter((list) => list.length > 0);
  return (
    <div className={styles.body} data-testid="anomaly-explanation">
      <p className={styles.sentence}>{e.sentence}</p>
      {!e.explained ? <p className={styles.note}>This anomaly was below the customer's thresholds when detected: its drivers were not worked out.</p> : null}
      {dimensions.map((list) => (
        <section key={list[0].dimension} aria-label={dimensionTitle(list[0])}>
          <Heading as="h3" className={styles.heading}>
            {dimensionTitle(list[0])}
          </Heading>
          <ul className={styles.list}>
            {list.map((c) => (
              <Contributor key={`${c.dimension}-${c.rank}`} c={c} currency={e.currency} />
            ))}
          </ul>
        </section>
      ))}
      <section aria-label="Around that day">
        <Heading as="h3" className={styles.heading}>
          Around that day
        </Heading>
        {e.events.length === 0 ? (
          <p className={styles.note}>Nothing happened in CommandCenter from the day before to the day after.</p>
        ) : (
          <ul className={styles.list}>
            {e.events.map((v) => (
              <li key={`${v.kind}-${v.at}-${v.text}`} className={styles.item}>
                <Link href={v.link}>{v.text}</Link>
                <span className={styles.figures}>{formatTimestampWithZone(v.at)}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function Contributor({ c, currency }: { c: AnomalyContributor; currency: string }) {
  const sign = c.contribution > 0 ? '+' : '';
  return (
    <li className={styles.item} data-rest={c.rank === 0 ? '' : undefined}>
      <span className={styles.name}>{contributorName(c)}</span>
      <span className={styles.figures}>
        {formatMoney(c.day_amount, currency)} that day · mean {formatMoney(c.mean_amount, currency)} · {sign}
        {formatMoney(c.contribution, currency)} ({contributorShare(c)})
      </span>
    </li>
  );
}
