import { formatListTimestamp, formatTimestamp } from '../../common/dates.ts';

/** Ticket screen dates, YYYY/MM/DD HH:mm US/Pacific (spec 000 §9); '' when absent. */
export const formatTicketDate = (value: string | null | undefined): string => (value ? formatTimestamp(value) : '');

/** List dates, en-GB 24-hour (spec 000 §9); '' when absent. */
export const formatListDate = (value: string | null | undefined): string => (value ? formatListTimestamp(value) : '');

export { firstResponseBucket } from '@cc/shared/tickets/first-response.ts';
