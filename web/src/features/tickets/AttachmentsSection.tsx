import { useState } from 'react';
import { Button, Dialog, IconButton, useConfirm } from '@primer/react';
import { DownloadIcon, FileIcon, PlusIcon, TrashIcon } from '@primer/octicons-react';
import { useLocation } from 'wouter';
import { errorDetail } from '../../common/api-error.ts';
import { useAppDispatch } from '../../app/hooks.ts';
import { useSnackbar } from '../../common/Snackbar.tsx';
import { useLogErrorMutation } from '../../app/logsApi.ts';
import { AttachmentDropZone } from './AttachmentDropZone.tsx';
import { useDownloadAttachment, useUploadFiles } from './attachment-transfer.ts';
import { isFinal, LIMITS } from '@cc/shared/tickets/rules.ts';
import { ATTACHMENT_REFRESH_MS, TICKET_MESSAGES } from './ticket-rules.ts';
import type { TicketAttachment, TicketDetail } from '@cc/shared/schemas/tickets.ts';
import { useAddAttachmentMutation, useDeleteAttachmentMutation, ticketsApi } from './ticketsApi.ts';
import { useTicketAccess } from './useTicketAccess.ts';
import styles from './tickets.module.css';

/** The ticket's files: download any; while the ticket is open, delete (after confirming) and add more. */
export function AttachmentsSection({ ticket }: { ticket: TicketDetail }) {
  const id = ticket.id;
  const { canWrite } = useTicketAccess();
  const editable = canWrite && !isFinal(ticket.status);
  const { show } = useSnackbar();
  const confirm = useConfirm();
  const [location] = useLocation();
  const [logError] = useLogErrorMutation();
  const download = useDownloadAttachment();
  const [deleteAttachment] = useDeleteAttachmentMutation();
  const [adding, setAdding] = useState(false);
  const attachments = ticket.attachments ?? [];

  async function onDownload(attachment: TicketAttachment) {
    try {
      await download(attachment);
    } catch (error) {
      show({ message: TICKET_MESSAGES.downloadFailed, variant: 'error' });
      const message = error instanceof Error ? error.message : String(error);
      void logError({ resource: location, type: 'DownloadError', data: { message, componentStack: '' } });
    }
  }

  async function onDelete(attachment: TicketAttachment) {
    const ok = await confirm({
      title: 'Delete attachment',
      content: TICKET_MESSAGES.confirmDeleteAttachment,
      confirmButtonContent: 'Delete',
      confirmButtonType: 'danger',
    });
    if (!ok) return;
    const result = await deleteAttachment({ id, attachmentId: attachment.id });
    if ('error' in result) show({ message: errorDetail(result.error) ?? 'The attachment was not deleted', variant: 'error' });
    else show({ message: TICKET_MESSAGES.attachmentDeleted, variant: 'success' });
  }

  return (
    <section className={styles.section} aria-labelledby="attachments-title">
      <div className={styles.sectionHead}>
        <h2 id="attachments-title" className={styles.sectionTitle}>
          Attachments
        </h2>
        {editable ? (
          <Button size="small" leadingVisual={PlusIcon} disabled={attachments.length >= LIMITS.attachmentsPerTicket} onClick={() => setAdding(true)}>
            Add file
          </Button>
        ) : null}
      </div>
      {attachments.length === 0 ? <p className={styles.muted}>No attachments.</p> : null}
      <ul className={styles.fileList} aria-label="Attachments">
        {attachments.map((a) => (
          <li key={a.id} className={styles.fileItem}>
            <FileIcon />
            <span className={styles.fileName}>{a.name}</span>
            <IconButton icon={DownloadIcon} size="small" variant="invisible" aria-label={`Download ${a.name}`} onClick={() => void onDownload(a)} />
            {editable ? (
              <IconButton icon={TrashIcon} size="small" variant="invisible" aria-label={`Delete ${a.name}`} onClick={() => void onDelete(a)} />
            ) : null}
          </li>
        ))}
      </ul>
      {adding ? <AddFileDialog ticketId={id} room={LIMITS.attachmentsPerTicket - attachments.length} onClose={() => setAdding(false)} /> : null}
    </section>
  );
}

/** Uploads the chosen files, attaches them, and reads the ticket again 3 s later (spec 000 §4). */
function AddFileDialog({ ticketId, room, onClose }: { ticketId: string; room: number; onClose: () => void }) {
  const [files, setFiles] = useState<File[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { show } = useSnackbar();
  const uploadFiles = useUploadFiles();
  const [addAttachment] = useAddAttachmentMutation();
  const dispatch = useAppDispatch();

  async function upload() {
    if (files.length === 0) {
      setError(TICKET_MESSAGES.required);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const names = await uploadFiles(files);
      for (const name of names) {
        const result = await addAttachment({ id: ticketId, name });
        if ('error' in result) throw new Error(errorDetail(result.error) ?? 'The attachment was not saved');
      }
      show({ message: TICKET_MESSAGES.attachmentSaved, variant: 'success' });
      // The ticket system may take a moment to list a new file: read the list again shortly.
      window.setTimeout(() => dispatch(ticketsApi.util.invalidateTags([{ type: 'Ticket', id: ticketId }])), ATTACHMENT_REFRESH_MS);
      onClose();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setBusy(false);
    }
  }

  return (
    <Dialog
      title="Add file"
      onClose={() => !busy && onClose()}
      footerButtons={[
        { content: 'Cancel', onClick: onClose, disabled: busy },
        { content: 'Upload', buttonType: 'primary', onClick: () => void upload(), loading: busy },
      ]}
    >
      <AttachmentDropZone label="Files to attach" files={files} onChange={setFiles} max={room} disabled={busy} />
      {error ? (
        <p role="alert" className={styles.problems}>
          {error}
        </p>
      ) : null}
    </Dialog>
  );
}
