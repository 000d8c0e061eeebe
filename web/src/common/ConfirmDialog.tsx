import type { ReactNode } from 'react';
import { Dialog } from '@primer/react';

export interface ConfirmDialogProps {
  /** Defaults to 'Please confirm' (spec 001 §4). */
  title?: string;
  children?: ReactNode;
  onSubmit: () => void;
  onCancel: () => void;
  /** Disables Submit while the change is being saved. */
  busy?: boolean;
}

/** Every add or remove of users goes through this dialog with Submit and Cancel (spec 001 §4). */
export function ConfirmDialog({ title = 'Please confirm', children, onSubmit, onCancel, busy = false }: ConfirmDialogProps) {
  return (
    <Dialog
      title={title}
      role="alertdialog"
      onClose={onCancel}
      footerButtons={[
        { content: 'Cancel', onClick: onCancel },
        { content: 'Submit', buttonType: 'primary', onClick: onSubmit, disabled: busy, loading: busy },
      ]}
    >
      {children}
    </Dialog>
  );
}
