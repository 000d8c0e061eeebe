import { Banner } from '@primer/react';
import { formatMoney } from '../../common/numbers.ts';
import type { DerivedProject } from './project-form.ts';
import styles from './provisioning.module.css';

export interface DerivedDetailsProps {
  derived: DerivedProject;
  currency: string;
  /** Why the id cannot be requested (Google's rules, or held by another request), or null. */
  idProblem: string | null;
  checking: boolean;
}

/** Quota counts as the template holds them: whole numbers stay whole (24 CPUs, not 24.00). */
const count = (n: number) => new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(n);

/** What the chosen template makes of the choices (spec 000 §2): id, label, quotas, budget and folder. */
export function DerivedDetails({ derived, currency, idProblem, checking }: DerivedDetailsProps) {
  const t = derived.template.project_template;
  return (
    <section aria-label="Project details" className={styles.details}>
      <dl>
        <dt>Project Id</dt>
        <dd data-testid="project-id">{derived.projectId}</dd>
        <dt>Project Label</dt>
        <dd data-testid="project-label">{derived.label}</dd>
        <dt>Project Type</dt>
        <dd>{t.project_type}</dd>
        <dt>Quotas</dt>
        <dd>
          BigQuery analysis: {count(t.quota.bigquery_analysis)} TiB per day; Compute Engine CPUs: {count(t.quota.compute_engine_cpus)}
        </dd>
        <dt>Budget</dt>
        <dd>{formatMoney(t.budget, currency)} per month</dd>
        <dt>Folder</dt>
        <dd>
          {derived.template.folder_name} ({derived.template.folder_number})
        </dd>
        <dt>Default Admin</dt>
        <dd>{t.default_admin}</dd>
      </dl>
      {idProblem ? (
        <div role="alert">
          <Banner variant="critical" title="This project id cannot be requested" description={idProblem} />
        </div>
      ) : checking ? (
        <p className={styles.muted}>Checking the project id…</p>
      ) : null}
    </section>
  );
}
