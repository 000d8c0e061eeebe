/**
 * What the ticket screens add to the shared ticket rules (`@cc/shared/tickets/rules.ts`, the same ones the
 * api enforces): colours, snackbar texts and the attachment check made before an upload.
 */
import { LIMITS, SATISFACTION_SCALE, TICKET_MESSAGES as RULE_MESSAGES } from '@cc/shared/tickets/rules.ts';
import { detectFileType } from '@cc/shared/tickets/file-type.ts';

/** Spec 000 §4: the attachment list is read again this long after an upload. */
export const ATTACHMENT_REFRESH_MS = 3_000;
/** How often a screen re-reads tickets still waiting for the ticket-sync queue. */
export const PENDING_POLL_MS = 5_000;

export const TICKET_MESSAGES = {
  required: RULE_MESSAGES.required,
  selectScore: RULE_MESSAGES.selectSatisfaction,
  toBeProvided: 'To be provided',
  confirmDeleteAttachment: 'Are you sure you want to delete this attachment?',
  downloadFailed: 'Error downloading file',
  commentSaved: 'Comment saved',
  attachmentSaved: 'Attachment saved',
  attachmentDeleted: 'Attachment deleted',
  statusSaved: 'status and comment saved',
  prioritySaved: 'Priority saved',
  satisfactionSaved: 'Satisfaction level saved',
} as const;

/** Primer Label variants standing for the spec's colours. */
export type LabelVariant = 'danger' | 'success' | 'secondary' | 'accent' | 'attention' | 'default';

/** Open red, Resolved and Closed green, Cancel grey; In Progress (no colour in the spec) blue. */
export function statusVariant(status: string): LabelVariant {
  switch (status) {
    case 'Open':
      return 'danger';
    case 'Resolved':
    case 'Closed':
      return 'success';
    case 'Cancel':
      return 'secondary';
    case 'In Progress':
      return 'accent';
    default:
      return 'default';
  }
}

/** Satisfaction colours: 1-2 red, 3 amber, 4-5 green. */
export function satisfactionVariant(score: number): LabelVariant {
  if (score <= 2) return 'danger';
  if (score === 3) return 'attention';
  return 'success';
}

export const satisfactionText = (score: number): string => SATISFACTION_SCALE[score] ?? String(score);

/** The pickers' `accept`: a hint for the browser's dialog; the content decides. */
export const ACCEPT_ATTRIBUTE = '.jpg,.jpeg,.png,.bmp,.txt,.pdf,.doc,.docx,image/jpeg,image/png,image/bmp,text/plain,application/pdf,application/msword,application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/**
 * Why a file cannot be attached, or null: the server's checks (size, then type by content) made before
 * uploading, so a refused file costs no upload. The server still has the last word.
 */
export async function attachmentProblem(file: File): Promise<string | null> {
  if (file.size === 0) return `${file.name}: ${RULE_MESSAGES.attachmentEmpty}`;
  if (file.size > LIMITS.attachmentBytes) return `${file.name}: ${RULE_MESSAGES.attachmentTooLarge}`;
  const type = detectFileType(new Uint8Array(await file.arrayBuffer()));
  if (!type) return `${file.name}: ${RULE_MESSAGES.attachmentType}`;
  return null;
}
