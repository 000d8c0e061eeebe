import { MESSAGES } from '@cc/shared/constants.ts';
import { MONEY_SCALE, decimalPlaces, normaliseDecimal } from '@cc/shared/decimal.ts';
import type { AlertGroupBy } from '@cc/shared/db/alerts.ts';
import type { AlertCreateBody } from '@cc/shared/schemas/insights.ts';
import { errors } from '../errors.ts';

const GROUP_BYS: readonly AlertGroupBy[] = ['service', 'project_label', 'resource_label'];

const fail = (field: string, message: string) => new errors.badRequest(`${field}: ${message}`);

/**
 * The alert form's rules (spec 001 §5): group by, label key, label value and quota required (labels not for Total,
 * where they are stored blank); quota numeric, minimum 0. Messages are the form's own.
 */
export function parseAlert(body: AlertCreateBody): { group_by: AlertGroupBy; label_key: string; label_value: string; quota: string } {
  const groupBy = body.group_by?.trim() ?? '';
  if (groupBy === '') throw fail('group_by', MESSAGES.required);
  if (!(GROUP_BYS as readonly string[]).includes(groupBy)) throw fail('group_by', `must be one of ${GROUP_BYS.join(', ')}`);
  const labelKey = groupBy === 'service' ? '' : (body.label_key?.trim() ?? '');
  const labelValue = groupBy === 'service' ? '' : (body.label_value?.trim() ?? '');
  if (groupBy !== 'service' && labelKey === '') throw fail('label_key', MESSAGES.required);
  if (groupBy !== 'service' && labelValue === '') throw fail('label_value', MESSAGES.required);
  return { group_by: groupBy as AlertGroupBy, label_key: labelKey, label_value: labelValue, quota: parseQuota(body.quota) };
}

function parseQuota(raw: number | string | undefined): string {
  const text = typeof raw === 'number' ? String(raw) : (raw?.trim() ?? '');
  if (text === '') throw fail('quota', MESSAGES.required);
  const quota = /^[+-]?(\d+\.?\d*|\.\d+)$/.test(text) ? normaliseDecimal(text) : null;
  if (quota === null) throw fail('quota', 'must be a number');
  if (quota.startsWith('-')) throw fail('quota', 'number must be 0 or greater');
  // numeric(24,12): twelve integer digits and twelve decimals at most.
  if (decimalPlaces(quota) > MONEY_SCALE || quota.split('.')[0].length > 12) throw fail('quota', 'must be a number');
  return quota;
}
