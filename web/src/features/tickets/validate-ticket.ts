import { isTicketPriority, LIMITS, TICKET_MESSAGES } from '@cc/shared/tickets/rules.ts';

export interface TicketDraft {
  summary: string;
  priority: string;
  description: string;
}

export type TicketDraftErrors = Partial<Record<keyof TicketDraft, string>>;

/** Spec 000 §5 per field: Summary required, max 100; Priority required; Description required, max 30000. */
export function validateTicket(draft: TicketDraft): TicketDraftErrors {
  const errors: TicketDraftErrors = {};
  if (!draft.summary.trim()) errors.summary = TICKET_MESSAGES.required;
  else if (draft.summary.trim().length > LIMITS.summary) errors.summary = TICKET_MESSAGES.summaryTooLong;
  if (!isTicketPriority(draft.priority)) errors.priority = TICKET_MESSAGES.required;
  if (!draft.description.trim()) errors.description = TICKET_MESSAGES.required;
  else if (draft.description.length > LIMITS.description) errors.description = TICKET_MESSAGES.descriptionTooLong;
  return errors;
}
