/**
 * Ticket rules of spec 000 §4, §5 and §9, as pure functions: the api refuses what they refuse (400 with the
 * message), and the screens can show the same answers before asking.
 */
export const TICKET_STATUSES = ['Open', 'In Progress', 'Resolved', 'Closed', 'Cancel'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export const TICKET_PRIORITIES = ['P1', 'P2', 'P3', 'P4'] as const;
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];
export type TicketRole = 'admin' | 'customer';

/** Spec 000 §9 priorities and their meaning. */
export const PRIORITY_MEANINGS: Record<TicketPriority, string> = {
  P1: 'end-user-facing production service entirely down.',
  P2: 'production partially broken or development blocked.',
  P3: 'development partially blocked, or investigating a previous production issue.',
  P4: 'feature requests or questions on using cloud services.',
};

/** Spec 000 §4 satisfaction scale. */
export const SATISFACTION_SCALE: Record<number, string> = {
  1: 'Very disappointed',
  2: 'Disappointed',
  3: 'Neutral',
  4: 'Satisfied',
  5: 'Very satisfied',
};

export const LIMITS = {
  summary: 100,
  description: 30_000,
  comment: 30_000,
  attachmentsPerTicket: 10,
  attachmentBytes: 5_000_000,
} as const;

export const TICKET_MESSAGES = {
  required: 'This field is required',
  selectSatisfaction: 'Please, select satisfaction score',
  summaryTooLong: `Summary must be at most ${LIMITS.summary} characters`,
  descriptionTooLong: `Description must be at most ${LIMITS.description} characters`,
  commentTooLong: `Comment must be at most ${LIMITS.comment} characters`,
  badPriority: 'Priority must be one of P1, P2, P3, P4',
  badStatus: 'Status must be one of Open, In Progress, Resolved, Closed, Cancel',
  closedTicket: (status: string) => `The ticket is ${status}: it can no longer be changed`,
  statusLocked: (status: string) => `The status of a ${status} ticket cannot be changed`,
  priorityLocked: (status: string) => `The priority of a ${status} ticket cannot be changed`,
  transitionRefused: (from: string, to: string) => `A ticket cannot move from ${from} to ${to}`,
  sameStatus: (status: string) => `The ticket is already ${status}`,
  samePriority: (priority: string) => `The priority is already ${priority}`,
  satisfactionNotClosed: 'Satisfaction can be given only on a Closed ticket',
  satisfactionByAdmin: 'Satisfaction is given by the customer, not by an admin',
  satisfactionGiven: 'Satisfaction has already been given for this ticket',
  tooManyAttachments: `A ticket has at most ${LIMITS.attachmentsPerTicket} attachments`,
  attachmentTooLarge: `An attachment is at most 5,000,000 bytes`,
  attachmentType: 'Accepted file types are jpeg, png, bmp, plain text, pdf, doc and docx',
  attachmentEmpty: 'The file is empty',
} as const;

/**
 * Allowed next statuses per role and current status (the server's answer to the transitions call).
 * - The provider (admin) works the ticket: starts it, resolves it, reopens it, or cancels it; a Resolved ticket
 *   can also be closed by the provider when the customer does not answer.
 * - The customer withdraws a ticket (Cancel) while it is worked on, and judges a resolution: Closed accepts it,
 *   In Progress sends it back.
 * - Closed and Cancel are final for both (the status selector is disabled there, spec 000 §4).
 */
export const TRANSITIONS: Record<TicketRole, Record<TicketStatus, readonly TicketStatus[]>> = {
  admin: {
    Open: ['In Progress', 'Resolved', 'Cancel'],
    'In Progress': ['Open', 'Resolved', 'Cancel'],
    Resolved: ['In Progress', 'Closed'],
    Closed: [],
    Cancel: [],
  },
  customer: {
    Open: ['Cancel'],
    'In Progress': ['Cancel'],
    Resolved: ['In Progress', 'Closed'],
    Closed: [],
    Cancel: [],
  },
};

export const isTicketStatus = (s: unknown): s is TicketStatus => (TICKET_STATUSES as readonly unknown[]).includes(s);
export const isTicketPriority = (p: unknown): p is TicketPriority => (TICKET_PRIORITIES as readonly unknown[]).includes(p);

/** The role whose transition table applies: admins as admin, everyone else as customer. */
export const ticketRole = (admin: boolean): TicketRole => (admin ? 'admin' : 'customer');

export function allowedTransitions(role: TicketRole, status: TicketStatus): readonly TicketStatus[] {
  return TRANSITIONS[role][status];
}

/** Closed or Cancel: no comment, no attachment added or deleted (spec 000 §4). */
export const isFinal = (status: string) => status === 'Closed' || status === 'Cancel';
/** The status selector is enabled only while Open, In Progress or Resolved. */
export const statusChangeable = (status: string) => status === 'Open' || status === 'In Progress' || status === 'Resolved';
/** The priority selector is enabled only while Open or In Progress. */
export const priorityChangeable = (status: string) => status === 'Open' || status === 'In Progress';

/** A broken rule: the api answers 400 with `message`. */
export class TicketRuleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TicketRuleError';
  }
}

const blank = (s: unknown): boolean => typeof s !== 'string' || s.trim() === '';

/** Checks a new ticket's fields; returns the trimmed summary and the rest unchanged. */
export function checkNewTicket(input: { summary?: unknown; description?: unknown; priority?: unknown }): {
  summary: string;
  description: string;
  priority: TicketPriority;
} {
  if (blank(input.summary)) throw new TicketRuleError(`Summary: ${TICKET_MESSAGES.required}`);
  const summary = (input.summary as string).trim();
  if (summary.length > LIMITS.summary) throw new TicketRuleError(TICKET_MESSAGES.summaryTooLong);
  if (input.priority === undefined || input.priority === null || input.priority === '') throw new TicketRuleError(`Priority: ${TICKET_MESSAGES.required}`);
  if (!isTicketPriority(input.priority)) throw new TicketRuleError(TICKET_MESSAGES.badPriority);
  if (blank(input.description)) throw new TicketRuleError(`Description: ${TICKET_MESSAGES.required}`);
  const description = input.description as string;
  if (description.length > LIMITS.description) throw new TicketRuleError(TICKET_MESSAGES.descriptionTooLong);
  return { summary, description, priority: input.priority };
}

/** A comment's message: required, at most 30,000 characters. */
export function checkCommentMessage(message: unknown): string {
  if (blank(message)) throw new TicketRuleError(TICKET_MESSAGES.required);
  const m = message as string;
  if (m.length > LIMITS.comment) throw new TicketRuleError(TICKET_MESSAGES.commentTooLong);
  return m;
}

/** Comments and attachment changes are refused on Closed or Cancel tickets. */
export function checkOpenForChanges(status: string): void {
  if (isFinal(status)) throw new TicketRuleError(TICKET_MESSAGES.closedTicket(status));
}

/** A status change by `role` from `from` to `to`. */
export function checkStatusChange(role: TicketRole, from: string, to: unknown): TicketStatus {
  if (!isTicketStatus(to)) throw new TicketRuleError(TICKET_MESSAGES.badStatus);
  if (!statusChangeable(from)) throw new TicketRuleError(TICKET_MESSAGES.statusLocked(from));
  if (from === to) throw new TicketRuleError(TICKET_MESSAGES.sameStatus(to));
  if (!allowedTransitions(role, from as TicketStatus).includes(to)) throw new TicketRuleError(TICKET_MESSAGES.transitionRefused(from, to));
  return to;
}

export function checkPriorityChange(status: string, from: string, to: unknown): TicketPriority {
  if (to === undefined || to === null || to === '') throw new TicketRuleError(`Priority: ${TICKET_MESSAGES.required}`);
  if (!isTicketPriority(to)) throw new TicketRuleError(TICKET_MESSAGES.badPriority);
  if (!priorityChangeable(status)) throw new TicketRuleError(TICKET_MESSAGES.priorityLocked(status));
  if (from === to) throw new TicketRuleError(TICKET_MESSAGES.samePriority(to));
  return to;
}

/** Satisfaction: once, on a Closed ticket, never by an admin, with a score 1..5 and a comment. */
export function checkSatisfaction(
  ticket: { status: string; satisfaction_score: number | null },
  admin: boolean,
  input: { score?: unknown; message?: unknown },
): { score: number; message: string } {
  if (admin) throw new TicketRuleError(TICKET_MESSAGES.satisfactionByAdmin);
  if (ticket.status !== 'Closed') throw new TicketRuleError(TICKET_MESSAGES.satisfactionNotClosed);
  if (ticket.satisfaction_score !== null) throw new TicketRuleError(TICKET_MESSAGES.satisfactionGiven);
  const score = input.score;
  if (typeof score !== 'number' || !Number.isInteger(score) || score < 1 || score > 5) throw new TicketRuleError(TICKET_MESSAGES.selectSatisfaction);
  const message = checkCommentMessage(input.message);
  return { score, message };
}

/** Adding `adding` attachments to a ticket that has `existing`. */
export function checkAttachmentCount(existing: number, adding: number): void {
  if (existing + adding > LIMITS.attachmentsPerTicket) throw new TicketRuleError(TICKET_MESSAGES.tooManyAttachments);
}
