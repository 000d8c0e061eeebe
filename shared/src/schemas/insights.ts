/**
 * Request and response schemas of the insight routes: anomalies, billing alerts (+ their notices) and
 * billing viewers. The screens are built from this file: names follow the spec (000 §3/§7, 001 §3/§7).
 *
 * Routes (all answer `{ detail }` on 400/401/403/404):
 *
 * | method | path                                                                 | permission     | tenant            |
 * |--------|----------------------------------------------------------------------|----------------|-------------------|
 * | GET    | /v1/anomalies/customer_id/:customer_id/billing_account_id/:billing_account_id/date/:date/minimum_anomaly_threshold/:minimum_anomaly_threshold/minimum_value_toggled_anomaly/:minimum_value_toggled_anomaly | billing_read | params customer_id |
 * | GET    | /v1/anomalies/…/date/:date/project_id/:project_id/service/:service/explanation | billing_read | params customer_id |
 * | GET    | /v1/alerts/:customer/                                                | alerts_read    | params customer   |
 * | POST   | /v1/alerts/:customer/                                                | alerts_create  | params customer   |
 * | DELETE | /v1/alerts/:customer/                                                | alerts_update  | params customer   |
 * | GET    | /v1/alerts/:customer/notices/                                        | alerts_read    | params customer   |
 * | GET    | /v1/viewers/:customer/                                               | alerts_read    | params customer   |
 * | POST   | /v1/viewers/:customer/filters/                                       | alerts_create  | params customer   |
 * | DELETE | /v1/viewers/:customer/filters/:user/                                 | alerts_update  | params customer   |
 *
 * Money in answers is a JSON number rounded to 2 decimals in SQL (display values; sums stay in PostgreSQL).
 *
 * Rules the screens rely on:
 * - Anomalies: 400 'Invalid date, expected YYYY-MM-DD' for a bad date, 400 'minimum_anomaly_threshold must be 0 or greater'
 *   / 'minimum_value_toggled_anomaly must be 0 or greater' (also for non-numbers: '... must be a number');
 *   404 'Billing account not found' when the account is not the customer's. When the customer's anomaly_detection flag is
 *   off the answer is 200 with `anomaly_detection: false` and no anomalies (the screen shows 'for {customer} is disabled').
 *   A customerViewer only gets anomalies of projects whose project labels match one of their filters.
 * - Alerts and viewers apply to the customer's first billing account only (the screen shows 'Alerts is not implemented for
 *   this billing account' for the others; the api has no billing account in these paths).
 * - POST alert validation (400 detail is `<field>: <message>`): 'group_by: This field is required',
 *   'label_key: This field is required', 'label_value: This field is required' (not for group_by service = Total, where both
 *   are stored blank), 'quota: This field is required', 'quota: must be a number', 'quota: number must be 0 or greater'.
 * - DELETE alerts: ids that are not alerts of this customer → 404 'Alert not found', nothing deleted.
 * - Viewers: 403 'Billing Viewer is disabled for this customer' when the customer's billing_viewer flag is off.
 *   POST filters: every user must be a customerViewer with access to the customer, else 400
 *   '<email> is not a viewer of this customer' (nothing saved). DELETE drops every filter of that user for the
 *   customer; unknown/non-viewer user → 404 'User not found'. Changes refresh the users' stored claims at once.
 */
import { Type, type Static } from '@sinclair/typebox';
import { SerialId } from './common.ts';
import { COST_BASES } from './billing.ts';

// ---------------------------------------------------------------- anomalies

export const AnomalyParams = Type.Object({
  customer_id: Type.String(),
  billing_account_id: Type.String(),
  /** YYYY-MM-DD, the judged US/Pacific day (the screen asks for two days before today). */
  date: Type.String(),
  /** Percent; numeric text ≥ 0. */
  minimum_anomaly_threshold: Type.String(),
  /** Money in the account's currency; numeric text ≥ 0. */
  minimum_value_toggled_anomaly: Type.String(),
});
export type AnomalyParams = Static<typeof AnomalyParams>;

export const Anomaly = Type.Object({
  project_id: Type.String(),
  service: Type.String(),
  /** Mean daily spend (cost + credits) over the trailing window before `date`. */
  mean_cost: Type.Number(),
  /** Spend on `date` (the "Latest Daily Spend"). */
  to_date_cost: Type.Number(),
  /** Percentage change from the mean, 2 decimals; null when the mean is 0 or below (new spend: judged on money only). */
  delta_from_mean_cost_perc: Type.Union([Type.Number(), Type.Null()]),
  currency: Type.String(),
});
export type Anomaly = Static<typeof Anomaly>;

export const AnomalyAnswer = Type.Object({
  date: Type.String(),
  billing_account_id: Type.String(),
  anomalies: Type.Array(Anomaly),
  /** The customer's anomaly_detection flag; false → no anomalies, the screen shows 'for {customer} is disabled'. */
  anomaly_detection: Type.Boolean(),
  /** When detection last ran for this account and date; null = not computed (yet) for that date. */
  computed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** Trailing window (days before `date`) the mean is taken over. */
  window_days: Type.Integer(),
  /** Series judged (enough history). */
  judged_series: Type.Integer(),
  /** Series NOT judged because they have fewer than `min_history_days` days of history (cold start). */
  cold_start_series: Type.Integer(),
  min_history_days: Type.Integer(),
  /** The basis the run judged spend on (the customer's billing_cost_basis then); null = not computed. */
  cost_basis: Type.Union([...COST_BASES.map((b) => Type.Literal(b)), Type.Null()]),
  /**
   * Stored anomalies judged in another currency that are not in `anomalies` because no rate into the display currency
   * lies within 7 days before their date, per judged currency, with the sentence the screen shows.
   */
  not_converted: Type.Array(Type.Object({ currency: Type.String(), count: Type.Integer({ minimum: 1 }), message: Type.String() })),
});
export type AnomalyAnswer = Static<typeof AnomalyAnswer>;

export const AnomalyExplanationParams = Type.Object({
  customer_id: Type.String(),
  billing_account_id: Type.String(),
  /** YYYY-MM-DD, the judged day. */
  date: Type.String(),
  project_id: Type.String({ minLength: 1, maxLength: 256 }),
  service: Type.String({ minLength: 1, maxLength: 256 }),
});
export type AnomalyExplanationParams = Static<typeof AnomalyExplanationParams>;

const Money2 = Type.Number();
const Nullable = <T extends ReturnType<typeof Type.Number>>(t: T) => Type.Union([t, Type.Null()]);

export const AnomalyContributor = Type.Object({
  dimension: Type.Union([Type.Literal('sku'), Type.Literal('resource'), Type.Literal('label')]),
  /** 1 = biggest; 0 = the rest of the dimension (value null). */
  rank: Type.Integer({ minimum: 0 }),
  label_key: Type.Union([Type.String(), Type.Null()]),
  value: Type.Union([Type.String(), Type.Null()]),
  /** Spend on the day, mean daily spend of the baseline, and day - mean: listed + rest = the anomaly's rise. */
  day_amount: Money2,
  mean_amount: Money2,
  contribution: Money2,
  /** Percent of the rise (1 decimal). */
  share: Type.Number(),
  day_quantity: Nullable(Type.Number()),
  mean_quantity: Nullable(Type.Number()),
  in_baseline: Type.Union([Type.Boolean(), Type.Null()]),
});
export type AnomalyContributor = Static<typeof AnomalyContributor>;

export const AnomalyEvent = Type.Object({
  kind: Type.String(),
  at: Type.String({ format: 'date-time' }),
  text: Type.String(),
  /** An app path, e.g. /supportrequest/view/CC-12. */
  link: Type.String(),
});

export const AnomalyExplanation = Type.Object({
  date: Type.String(),
  project_id: Type.String(),
  service: Type.String(),
  currency: Type.String(),
  mean_cost: Money2,
  to_date_cost: Money2,
  /** to_date_cost - mean_cost as shown. */
  rise: Money2,
  delta_from_mean_cost_perc: Nullable(Type.Number()),
  /** false: detected below the customer's thresholds, so no contributors were worked out. */
  explained: Type.Boolean(),
  /** The driver named first, with its share of the rise in percent. */
  lead: Type.Union([Type.Object({ dimension: Type.String(), name: Type.String(), share: Type.Number() }), Type.Null()]),
  /** How the top SKU rose: usage, price, new, or unknown (no quantity in the lines). */
  kind: Type.Union([Type.Literal('usage'), Type.Literal('price'), Type.Literal('new'), Type.Literal('unknown'), Type.Null()]),
  kind_text: Type.Union([Type.String(), Type.Null()]),
  /** The one sentence answering "why is this an anomaly". */
  sentence: Type.String(),
  contributors: Type.Array(AnomalyContributor),
  /** What happened in the portal from the day before to the day after. */
  events: Type.Array(AnomalyEvent),
});
export type AnomalyExplanation = Static<typeof AnomalyExplanation>;

// ---------------------------------------------------------------- alerts

/** 'service' is shown as Total (no labels); project_label / resource_label name a label key and value. */
export const AlertGroupBy = Type.Union([Type.Literal('service'), Type.Literal('project_label'), Type.Literal('resource_label')]);
export type AlertGroupBy = Static<typeof AlertGroupBy>;

export const AlertParams = Type.Object({ customer: Type.String() });

export const Alert = Type.Object({
  id: Type.Integer(),
  group_by: AlertGroupBy,
  /** '' for Total. */
  label_key: Type.String(),
  /** '' for Total. */
  label_value: Type.String(),
  quota: Type.Number({ minimum: 0 }),
});
export type Alert = Static<typeof Alert>;

export const AlertList = Type.Array(Alert);

/**
 * Loose on purpose: the handler checks each field and answers the form's own messages
 * ('This field is required', 'must be a number', 'number must be 0 or greater') instead of ajv's.
 * quota may be a number or numeric text.
 */
export const AlertCreateBody = Type.Object({
  group_by: Type.Optional(Type.String()),
  label_key: Type.Optional(Type.String()),
  label_value: Type.Optional(Type.String()),
  quota: Type.Optional(Type.Union([Type.Number(), Type.String()])),
});
export type AlertCreateBody = Static<typeof AlertCreateBody>;

/** The selected alerts, by id. */
export const AlertDeleteBody = Type.Object({ ids: Type.Array(SerialId(), { minItems: 1, maxItems: 1000 }) });
export type AlertDeleteBody = Static<typeof AlertDeleteBody>;
export const AlertDeleteAnswer = Type.Object({ deleted: Type.Integer() });
export type AlertDeleteAnswer = Static<typeof AlertDeleteAnswer>;

/** One e-mailed first crossing of a quota in a billing month (US/Pacific). */
export const AlertNotice = Type.Object({
  id: Type.Integer(),
  alert_id: Type.Integer(),
  /** Billing month YYYY-MM. */
  month: Type.String(),
  group_by: AlertGroupBy,
  label_key: Type.String(),
  label_value: Type.String(),
  quota: Type.Number(),
  /** Month-to-date spend when the quota was found exceeded. */
  spend: Type.Number(),
  currency: Type.String(),
  /** The last usage day included in `spend`. */
  evaluated_day: Type.String(),
  /** The basis `spend` was judged on: the customer's billing_cost_basis at the time (docs/decisions-billing.md). */
  cost_basis: Type.Union(COST_BASES.map((b) => Type.Literal(b))),
  recipients: Type.Array(Type.String()),
  created_at: Type.String({ format: 'date-time' }),
});
export type AlertNotice = Static<typeof AlertNotice>;
export const AlertNoticeList = Type.Array(AlertNotice);

// ---------------------------------------------------------------- viewers

export const ViewerParams = Type.Object({ customer: Type.String() });
export const ViewerUserParams = Type.Object({ customer: Type.String(), user: Type.String() });

export const ProjectLabelFilter = Type.Object({ label_key: Type.String(), label_value: Type.String() });

/** A customerViewer with access to the customer, and their project-label filter (empty = sees nothing). */
export const Viewer = Type.Object({
  user: Type.String(),
  project_label: Type.Array(ProjectLabelFilter),
});
export type Viewer = Static<typeof Viewer>;
export const ViewerList = Type.Array(Viewer);

export const ViewerFilterAddBody = Type.Object({
  users: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
  label_key: Type.String({ minLength: 1 }),
  label_value: Type.String({ minLength: 1 }),
});
export type ViewerFilterAddBody = Static<typeof ViewerFilterAddBody>;

/** Answer of both filter changes: the viewers list after the change (the screen reloads from it). */
export const ViewerChangeAnswer = ViewerList;
