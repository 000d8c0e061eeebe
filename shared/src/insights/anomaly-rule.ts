/**
 * Constants of anomaly detection (decisions in docs/decisions-insights.md). The rule itself is the SQL function
 * anomaly_exceeds (migration 1700000000004_insights.sql), shared by the detection job and the api.
 */

/** The mean is taken over at most these many days before the judged day: four whole weeks, so weekdays weigh equally. */
export const ANOMALY_WINDOW_DAYS = 28;

/** A series seen on fewer days than this before the judged day is cold: not judged. */
export const ANOMALY_MIN_HISTORY_DAYS = 7;

/** Spec 000 §9: the anomaly date is two days before today (US/Pacific): billing exports settle within two days. */
export const ANOMALY_DATE_OFFSET_DAYS = 2;

/**
 * Unflagged candidates (rose, but below the customer's thresholds) are kept this many days: enough for the screen to
 * try other thresholds on the last month; older days keep only the anomalies that met the customer's thresholds.
 */
export const ANOMALY_CANDIDATE_RETENTION_DAYS = 35;

/** Contributors listed per dimension (SKU, resource, label value) of an anomaly; the rest is summed into one row. */
export const ANOMALY_CONTRIBUTORS_LISTED = 3;
