/**
 * The support ticket a selection on /inventory raises (spec 000 §2): summary 'Inventory investigation' or
 * 'Recommendation investigation', a description listing the selected rows, and for recommendations their names,
 * which the ticket then takes on (claimed in Recommender with the ticket key).
 */
import type { InventoryItem, RecommendationItem } from '@cc/shared/schemas/inventory.ts';
import { LIMITS } from '@cc/shared/tickets/rules.ts';
import type { NewTicketPrefill } from '../tickets/prefill.ts';

/** Lines past the ticket's description limit are left out with a count, so the prefill is always savable. */
function listing(heading: string, lines: string[]): string {
  const out = [`${heading} (${lines.length}):`];
  let length = out[0]!.length;
  for (const [i, line] of lines.entries()) {
    const more = `… and ${lines.length - i} more`;
    if (length + line.length + more.length + 2 > LIMITS.description) {
      out.push(more);
      break;
    }
    out.push(line);
    length += line.length + 1;
  }
  return out.join('\n');
}

const orDash = (s: string | null | undefined) => (s ? s : '-');

export function assetLine(a: InventoryItem): string {
  return `- ${a.asset_type} ${a.asset_name} (project ${orDash(a.project_id)}, region ${orDash(a.region)}, violation ${orDash(a.violation_rule)})`;
}

export function recommendationLine(r: RecommendationItem): string {
  const saving = r.monthly_cost !== null && Number(r.monthly_cost) < 0 ? `, saves ${(-Number(r.monthly_cost)).toFixed(2)} ${r.currency ?? ''}/month` : '';
  return `- ${r.primary_impact_category} ${r.recommender_subtype} in ${r.project_id} (${r.location}): ${r.target_resources.join(', ') || r.name}${saving}`;
}

export function inventoryTicket(assets: readonly InventoryItem[]): NewTicketPrefill {
  return { summary: 'Inventory investigation', description: listing('Selected assets', assets.map(assetLine)) };
}

export function recommendationTicket(recs: readonly RecommendationItem[]): NewTicketPrefill {
  return {
    summary: 'Recommendation investigation',
    description: listing('Selected recommendations', recs.map(recommendationLine)),
    recommendations: recs.map((r) => r.name),
  };
}
