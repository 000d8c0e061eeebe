import { MAX_DESCRIPTION, MAX_SUMMARY, PRIORITIES, TICKET_MESSAGES } from './ticket-rules.ts';

export interface TicketDraft {
  summary: string;
  priority: string;
  description: string;
}

export type TicketDraftErrors = Partial<Record<keyof TicketDraft, string>>;

/** Spec 000 §5: Summary required, max 100; Priority required; Description required, max 30000. */
export function validateTicket(draft: TicketDraft): TicketDraftErrors {
  const errors: TicketDraftErrors = {};
  if (!draft.summary.trim()) errors.summary = TICKET_MESSAGES.required;
  else if (draft.summary.length > MAX_SUMMARY) errors.summary = `At most ${MAX_SUMMARY} characters`;
  if (!PRIORITIES.some((p) => p.name === draft.priority)) errors.priority = TICKET_MESSAGES.required;
  if (!draft.description.trim()) errors.description = TICKET_MESSAGES.required;
  else if (draft.description.length > MAX_DESCRIPTION) errors.description = `At most ${MAX_DESCRIPTION.toLocaleString('en-GB')} characters`;
  return errors;
}
