import { useState } from 'react';
import { Button, FormControl, Heading, TextInput } from '@primer/react';
import { CopyIcon } from '@primer/octicons-react';
import { errorDetail } from '../../../common/api-error.ts';
import { useSnackbar } from '../../../common/Snackbar.tsx';
import { useGenerateServiceScriptMutation, useGetServiceAccessQuery } from '../customersApi.ts';
import styles from '../../../common/forms.module.css';

const projectIds = (value: string) =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * With a service account (spec 001 §2.4): the GCP projects it was granted, and a generator of the
 * cloud-shell script that grants or revokes it on more projects, with copy to clipboard.
 */
export function AdvancedSettings({ customerId }: { customerId: string }) {
  const { show } = useSnackbar();
  const { data: access, isLoading, error } = useGetServiceAccessQuery(customerId);
  const projects = access?.projects;
  const [generate, { isLoading: generating }] = useGenerateServiceScriptMutation();
  const [ids, setIds] = useState('');
  const [script, setScript] = useState<string | null>(null);
  const [scriptError, setScriptError] = useState<string | null>(null);

  async function run(action: 'grant' | 'revoke') {
    setScriptError(null);
    const result = await generate({ customer_id: customerId, action, project_ids: projectIds(ids) });
    if ('error' in result) {
      setScript(null);
      setScriptError(errorDetail(result.error) ?? 'Error generating the script');
    } else {
      setScript(result.data.script);
    }
  }

  async function copy() {
    if (!script) return;
    try {
      await navigator.clipboard.writeText(script);
      show({ message: 'Script copied to clipboard', variant: 'success' });
    } catch {
      show({ message: 'Could not copy to clipboard', variant: 'error' });
    }
  }

  return (
    <section className={styles.panel} aria-label="Advanced Settings">
      <Heading as="h3" className={styles.panelTitle}>
        Advanced Settings
      </Heading>
      <h4 className={styles.panelTitle}>Granted GCP projects</h4>
      {isLoading ? <p className={styles.muted}>Loading…</p> : null}
      {error ? <p className={styles.muted}>{errorDetail(error) ?? 'Error loading the projects'}</p> : null}
      {projects && projects.length === 0 ? <p className={styles.muted}>No projects granted yet</p> : null}
      {projects && projects.length > 0 ? (
        <table className={styles.tiers} aria-label="Granted GCP projects">
          <thead>
            <tr>
              <th scope="col">Project Id</th>
              <th scope="col">Project Name</th>
            </tr>
          </thead>
          <tbody>
            {projects.map((p) => (
              <tr key={p.project_id}>
                <td>{p.project_id}</td>
                <td>{p.project_name}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <FormControl id="service-project-ids">
        <FormControl.Label>Project ids</FormControl.Label>
        <TextInput block value={ids} placeholder="project-a, project-b" onChange={(e) => setIds(e.target.value)} />
        <FormControl.Caption>Comma-separated</FormControl.Caption>
      </FormControl>
      <div className={styles.buttons}>
        <Button disabled={projectIds(ids).length === 0 || generating} onClick={() => void run('grant')}>
          Grant script
        </Button>
        <Button disabled={projectIds(ids).length === 0 || generating} onClick={() => void run('revoke')}>
          Revoke script
        </Button>
      </div>
      {scriptError ? (
        <p role="alert" className={styles.muted}>
          {scriptError}
        </p>
      ) : null}
      {script ? (
        <>
          <pre className={styles.script} aria-label="Cloud shell script">
            {script}
          </pre>
          <div>
            <Button size="small" leadingVisual={CopyIcon} onClick={() => void copy()}>
              Copy to clipboard
            </Button>
          </div>
        </>
      ) : null}
    </section>
  );
}
