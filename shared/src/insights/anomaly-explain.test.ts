import t from 'tap';
import { driverKind, explain, type ContributorRow, type StoredExplanation } from './anomaly-explain.ts';

const sku = (o: Partial<ContributorRow>): ContributorRow => ({
  dimension: 'sku',
  rank: 1,
  label_key: null,
  value: 'N1 Predefined Instance Core running in Americas',
  day_amount: 0,
  mean_amount: 0,
  contribution: 0,
  day_cost: null,
  mean_cost: null,
  day_credits: 0,
  mean_credits: 0,
  day_amortisation: 0,
  mean_amortisation: 0,
  day_quantity: null,
  mean_quantity: null,
  in_baseline: true,
  ...o,
});

t.test('usage, price, credits, commitment, new and unknown', async (t) => {
  t.same(driverKind(sku({ contribution: 310, day_cost: 410, mean_cost: 100, day_quantity: 410, mean_quantity: 100 }), undefined, 28), { kind: 'usage', text: 'usage ×4.1, unit price unchanged' });
  t.same(driverKind(sku({ contribution: 80, day_cost: 180, mean_cost: 100, day_quantity: 100, mean_quantity: 100 }), undefined, 28), { kind: 'price', text: 'unit price ×1.8, usage unchanged' });
  t.same(driverKind(sku({ contribution: 20, day_cost: 100, mean_cost: 100, day_credits: 0, mean_credits: -20 }), undefined, 28), { kind: 'price', text: 'credits stopped, unit price otherwise unchanged' });
  t.same(driverKind(sku({ contribution: 30, day_amortisation: 0, mean_amortisation: -30 }), undefined, 28), { kind: 'price', text: 'commitment discount no longer applied' });
  t.same(driverKind(sku({ contribution: 50, in_baseline: false }), undefined, 28), { kind: 'new', text: 'new SKU, not in the 28-day baseline' });
  const resource: ContributorRow = { ...sku({ contribution: 45, in_baseline: false }), dimension: 'resource', value: 'vm-analytics-3' };
  t.same(driverKind(sku({ contribution: 50, day_quantity: 200, mean_quantity: 100, day_cost: 200, mean_cost: 100 }), resource, 28), { kind: 'new', text: 'new resource vm-analytics-3, not in the 28-day baseline' });
  t.same(driverKind(sku({ contribution: 50, day_cost: 150, mean_cost: 100 }), undefined, 28), { kind: 'unknown', text: 'usage or price cannot be told: the billing lines carry no quantity' });
  t.same(driverKind(sku({ contribution: 50, day_cost: 300, mean_cost: 100, day_quantity: 200, mean_quantity: 100 }), undefined, 28).kind, 'usage', 'both moved: the bigger factor names the kind');
});

t.test("the issue's sentence", async (t) => {
  const e: StoredExplanation = {
    anomaly_id: '1',
    currency: 'EUR',
    mean_cost: 95.1,
    to_date_cost: 412,
    rise: 316.9,
    delta_from_mean_cost_perc: 333.23,
    explained: true,
    min_perc: 20,
    min_value: 10,
    contributors: [
      sku({ contribution: 275.7, day_cost: 360.8, mean_cost: 88, day_quantity: 360.8, mean_quantity: 88 }),
      { ...sku({ contribution: 275.7 }), dimension: 'resource', value: 'vm-analytics-3' },
    ],
  };
  const out = explain(e, {
    date: '2026-10-30',
    windowDays: 28,
    events: [
      { kind: 'license_order_placed', at: '2026-10-30T17:00:00Z', text: 'a license order for 5 Enterprise was placed', link: '/workspacelicense', customer_wide: true },
      { kind: 'project_created', at: '2026-10-29T17:00:00Z', text: "project acmeco-analytics-prod was created from template 'analytics'", link: '/projectprovisioning', customer_wide: false },
    ],
  });
  t.equal(
    out.sentence,
    "412.00 EUR on 2026-10-30 against a 28-day mean of 95.10 EUR (+333 %, above the 20 % and 10 EUR thresholds); 87 % of the rise is SKU 'N1 Predefined Instance Core running in Americas' (usage ×4.1, unit price unchanged), mostly on resource vm-analytics-3; project acmeco-analytics-prod was created from template 'analytics' the day before.",
  );
  t.same(out.lead, { dimension: 'sku', name: 'N1 Predefined Instance Core running in Americas', share: 87 });
});

t.test('an anomaly without contributors says why it has none', async (t) => {
  const base: StoredExplanation = { anomaly_id: '1', currency: 'EUR', mean_cost: 10, to_date_cost: 30, rise: 20, delta_from_mean_cost_perc: 200, explained: false, min_perc: 20, min_value: 10, contributors: [] };
  t.match(explain(base, { date: '2026-10-30', windowDays: 28, events: [] }).sentence, /; its drivers were not worked out: it was below the customer's thresholds when detected\.$/);
  t.match(explain({ ...base, explained: true }, { date: '2026-10-30', windowDays: 28, events: [] }).sentence, /; no billing line of that project and service explains the rise\.$/);
});
