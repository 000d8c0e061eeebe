import { useEffect, useRef } from 'react';
import { Dialog } from '@primer/react';
import { useSnackbar } from '../../common/Snackbar.tsx';
import { useExportBillingMutation, type ExportArgs } from './billingApi.ts';
import { downloadText, exportFileName, toCsv } from './format.ts';
import styles from './BillingDashboard.module.css';

/** Spec 000 §9: the export dialog closes 1 s after the download click. */
export const EXPORT_CLOSE_MS = 1_000;

export interface ExportDialogProps {
  args: ExportArgs;
  /** The {range} part of the file name. */
  range: string;
  /** Lines describing what is exported (provider, grouping, period). */
  description: readonly [string, string][];
  onClose: () => void;
}

/** Downloads the export answer (headers + rows) as cc_{provider}_billing_data_{range}.csv. */
export function ExportDialog({ args, range, description, onClose }: ExportDialogProps) {
  const [exportBilling, { isLoading }] = useExportBillingMutation();
  const { show } = useSnackbar();
  const closeTimer = useRef<number | undefined>(undefined);
  const fileName = exportFileName(args.provider, range);

  useEffect(() => () => window.clearTimeout(closeTimer.current), []);

  async function onDownload() {
    closeTimer.current = window.setTimeout(onClose, EXPORT_CLOSE_MS);
    // The request outlives the dialog: the file is saved whenever the answer arrives.
    const result = await exportBilling(args);
    if ('error' in result) {
      show({ message: 'Error downloading file', variant: 'error' });
      return;
    }
    downloadText(fileName, toCsv(result.data.headers, result.data.rows));
  }

  return (
    <Dialog
      title="Export"
      subtitle="Billing data as a CSV file"
      onClose={onClose}
      footerButtons={[
        { content: 'Cancel', onClick: onClose },
        { content: 'Download', buttonType: 'primary', disabled: isLoading, onClick: () => void onDownload() },
      ]}
    >
      <dl className={styles.facts}>
        {description.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
        <div>
          <dt>File</dt>
          <dd>{fileName}</dd>
        </div>
      </dl>
    </Dialog>
  );
}
