/**
 * The route state another screen passes to /supportrequest/new to prefill it (spec 000 §2: inventory
 * and recommendation selections), e.g.
 * `navigate('/supportrequest/new', { state: { summary: 'Inventory investigation', description } })`.
 * `recommendations` names the recommendations the ticket takes on (they are marked claimed with its key).
 */
export interface NewTicketPrefill {
  summary?: string;
  description?: string;
  recommendations?: string[];
}

/** The prefill carried by `history.state`, ignoring anything that is not text. */
export function readPrefill(state: unknown): { summary: string; description: string; recommendations: string[] } {
  const s = (state && typeof state === 'object' ? state : {}) as Record<string, unknown>;
  return {
    summary: typeof s.summary === 'string' ? s.summary : '',
    description: typeof s.description === 'string' ? s.description : '',
    recommendations: Array.isArray(s.recommendations) ? s.recommendations.filter((r): r is string => typeof r === 'string') : [],
  };
}
