/**
 * The ticket rules the screens apply (spec 000 §4, §5, §9). The server checks the same limits; these
 * mirror them so a user learns of a problem before an upload or a save.
 */

export const TICKET_STATUSES = ['Open', 'In Progress', 'Resolved', 'Closed', 'Cancel'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export const PRIORITIES = [
  { name: 'P1', meaning: 'End-user-facing production service entirely down.' },
  { name: 'P2', meaning: 'Production partially broken or development blocked.' },
  { name: 'P3', meaning: 'Development partially blocked, or investigating a previous production issue.' },
  { name: 'P4', meaning: 'Feature requests or questions on using cloud services.' },
] as const;

export const SATISFACTION_SCALE = [
  { score: 1, text: 'Very disappointed' },
  { score: 2, text: 'Disappointed' },
  { score: 3, text: 'Neutral' },
  { score: 4, text: 'Satisfied' },
  { score: 5, text: 'Very satisfied' },
] as const;

export const MAX_SUMMARY = 100;
export const MAX_DESCRIPTION = 30_000;
export const MAX_COMMENT = 30_000;
export const MAX_ATTACHMENTS = 10;
export const MAX_ATTACHMENT_BYTES = 5_000_000;
/** Spec 000 §4: the attachment list is read again this long after an upload. */
export const ATTACHMENT_REFRESH_MS = 3_000;

export const TICKET_MESSAGES = {
  required: 'This field is required',
  selectScore: 'Please, select satisfaction score',
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

/** Primer Label variants for the spec's colours: Open red, Resolved and Closed green, Cancel grey. */
export type LabelVariant = 'danger' | 'success' | 'secondary' | 'accent' | 'attention' | 'default';

export function statusVariant(status: string): LabelVariant {
  switch (status) {
    case 'Open':
      return 'danger';
    case 'Resolved':
    case 'Closed':
      return 'success';
    case 'Cancel':
      return 'secondary';
    // The spec gives In Progress no colour: blue, "being worked on".
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

export function satisfactionText(score: number): string {
  return SATISFACTION_SCALE.find((s) => s.score === score)?.text ?? String(score);
}

/** Spec 000 §4: the status selector is enabled only while Open, In Progress or Resolved. */
export const canChangeStatus = (status: string) => status === 'Open' || status === 'In Progress' || status === 'Resolved';
/** The priority selector only while Open or In Progress. */
export const canChangePriority = (status: string) => status === 'Open' || status === 'In Progress';
/** Closed or Cancel tickets hide add-comment, add-attachment and delete-attachment. */
export const isFinished = (status: string) => status === 'Closed' || status === 'Cancel';

/** Accepted attachment types (jpeg, png, bmp, plain text, pdf, Word doc and docx), by MIME type and name. */
const ACCEPTED_TYPES: Record<string, string> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/bmp': 'bmp',
  'text/plain': 'plain text',
  'application/pdf': 'pdf',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
};
const ACCEPTED_EXTENSIONS = ['.jpg', '.jpeg', '.png', '.bmp', '.txt', '.pdf', '.doc', '.docx'];

/** The `accept` attribute of the file pickers. */
export const ACCEPT_ATTRIBUTE = [...ACCEPTED_EXTENSIONS, ...Object.keys(ACCEPTED_TYPES)].join(',');

/**
 * Why a file cannot be attached, or null. Browsers often leave `type` empty (e.g. .doc on Linux), so
 * the name's extension also counts; the server has the last word, by the file's content.
 */
export function attachmentProblem(file: { name: string; size: number; type: string }): string | null {
  const ext = file.name.includes('.') ? file.name.slice(file.name.lastIndexOf('.')).toLowerCase() : '';
  const typeOk = file.type in ACCEPTED_TYPES || ACCEPTED_EXTENSIONS.includes(ext);
  if (!typeOk) return `${file.name}: only jpeg, png, bmp, plain text, pdf, doc and docx files can be attached`;
  if (file.size > MAX_ATTACHMENT_BYTES) return `${file.name}: larger than 5,000,000 bytes`;
  if (file.size === 0) return `${file.name}: the file is empty`;
  return null;
}
