import t from 'tap';
import type { InventoryItem, RecommendationItem } from '@cc/shared/schemas/inventory.ts';
import { LIMITS } from '@cc/shared/tickets/rules.ts';
import { inventoryTicket, recommendationTicket } from './inventory-ticket.ts';

const vm: InventoryItem = {
  asset_name: '//compute.googleapis.com/projects/shop/zones/europe-west1-b/instances/web-1',
  asset_type: 'compute.googleapis.com/Instance',
  project_id: 'shop',
  location: 'europe-west1-b',
  region: 'europe-west1',
  violation_rule: 'instance-public-ip',
  display_name: 'web-1',
  update_time: null,
};

t.test('assets: the summary and one line per selected row', async (t) => {
  t.same(inventoryTicket([vm, { ...vm, asset_name: 'b', region: null, violation_rule: null }]), {
    summary: 'Inventory investigation',
    description: [
      'Selected assets (2):',
      '- compute.googleapis.com/Instance //compute.googleapis.com/projects/shop/zones/europe-west1-b/instances/web-1 (project shop, region europe-west1, violation instance-public-ip)',
      '- compute.googleapis.com/Instance b (project shop, region -, violation -)',
    ].join('\n'),
  });
});

t.test('recommendations: the names travel with the ticket, the saving is per month', async (t) => {
  const rec: RecommendationItem = {
    name: 'projects/1/locations/europe-west1-b/recommenders/r/recommendations/a',
    state: 'ACTIVE',
    recommender: 'google.compute.instance.IdleResourceRecommender',
    recommender_subtype: 'STOP_VM',
    primary_impact_category: 'COST',
    cost: '-40',
    currency: 'EUR',
    cost_duration: '2592000s',
    monthly_cost: '-40.00',
    description: 'Stop it',
    priority: 'P2',
    target_resources: ['//compute.googleapis.com/projects/shop/zones/europe-west1-b/instances/web-1'],
    location: 'europe-west1-b',
    project_id: 'shop',
    last_refresh_time: null,
    ticket_key: null,
  };
  const ticket = recommendationTicket([rec]);
  t.equal(ticket.summary, 'Recommendation investigation');
  t.same(ticket.recommendations, [rec.name]);
  t.equal(
    ticket.description,
    'Selected recommendations (1):\n- COST STOP_VM in shop (europe-west1-b): //compute.googleapis.com/projects/shop/zones/europe-west1-b/instances/web-1, saves 40.00 EUR/month',
  );
});

t.test('a huge selection stays within the description limit', async (t) => {
  const many = Array.from({ length: 2000 }, (_, i) => ({ ...vm, asset_name: `${vm.asset_name}-${i}` }));
  const d = inventoryTicket(many).description!;
  t.ok(d.length <= LIMITS.description, `${d.length} characters`);
  t.match(d, /… and \d+ more$/);
});
