import type { ReactNode } from 'react';
import { Dialog } from '@primer/react';

export interface MessageDialogProps {
  title: string;
  children: ReactNode;
  onClose: () => void;
}

/** A dialog that states a problem and has one OK button (failures, 'E-mail already exists'). */
export function MessageDialog({ title, children, onClose }: MessageDialogProps) {
  return (
    <Dialog title={title} role="alertdialog" onClose={onClose} footerButtons={[{ content: 'OK', buttonType: 'primary', onClick: onClose }]}>
      {children}
    </Dialog>
  );
}
