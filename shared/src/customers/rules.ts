/**
 * The customer form's rules (spec 001 §2.4, §4, §5; 000 §3, §5), applied by the server so that a customer
 * is only ever stored whole and consistent. Pure functions: the repository writes what `resolveCustomer` returns.
 */
import { CURRENCIES, DEFAULT_CURRENCY } from '../constants.ts';
import type { CostBasis } from '../schemas/billing.ts';
import { isEmail, EMAIL_NOT_VALID } from '../emails.ts';
import { InputError } from '../input-error.ts';
import { customerProblem, customerRequired, DASHBOARD_TYPE_ALIASES } from './messages.ts';

/** A customer field's 400: '{label}: This field is required' (messages.ts says why labels). */
const required = (field: string) => new InputError(customerRequired(field));
/** A customer field's 400: '{label}: {problem}'. */
const problem = (field: string, text: string) => new InputError(customerProblem(field, text));

export interface TierRow {
  threshold_spend: number;
  percentage: number;
}

/** A customer's stored settings (everything but its member lists and filters). */
export interface CustomerRecord {
  customer_id: string;
  customer_name: string;
  entity: string | null;
  billing_account_ids: string[];
  billing_currency: string;
  billing_dashboard_type: string;
  billing_dashboard_set_discount: number | null;
  billing_dashboard_tier_discount: TierRow[];
  support_request: boolean;
  billing_viewer: boolean;
  gcp_service_account: boolean;
  service_account_email: string;
  inventory: boolean;
  system_health_dashboard: boolean;
  grafana_external_link: string;
  documentation: boolean;
  drive_id: string;
  workspace_license: boolean;
  domain_name: string;
  anomaly_detection: boolean;
  minimum_anomaly_threshold: number;
  minimum_value_toggled_anomaly: number;
  /** What alert quotas and anomaly detection judge: billed (cash, as invoiced) or amortised (docs/decisions-billing.md). */
  billing_cost_basis: CostBasis;
  business_units: string[];
  products: string[];
  env: string[];
  owner_values: string[];
  project_provisioning: unknown[];
}

/** What the create / update forms send (see shared/src/schemas/customers.ts CustomerCreate). */
export type CustomerInput = Partial<Omit<CustomerRecord, 'billing_account_ids' | 'entity'>> & {
  entity?: string;
  billing_account_id?: string;
};

export const CUSTOMER_ID_TOO_SHORT = 'Must have at least 6 characters';
export const CUSTOMER_ID_CHARACTERS = 'Customer Id may contain only letters, hyphen and space';
export const DRIVE_FOLDER_PREFIX = 'https://drive.google.com/drive/folders/';

export const CUSTOMER_DEFAULTS: Omit<CustomerRecord, 'customer_id' | 'customer_name' | 'entity' | 'billing_account_ids'> = {
  billing_currency: DEFAULT_CURRENCY,
  billing_dashboard_type: 'Standard',
  billing_dashboard_set_discount: null,
  billing_dashboard_tier_discount: [],
  support_request: false,
  billing_viewer: false,
  gcp_service_account: false,
  service_account_email: '',
  inventory: false,
  system_health_dashboard: false,
  grafana_external_link: '',
  documentation: false,
  drive_id: '',
  workspace_license: false,
  domain_name: '',
  anomaly_detection: false,
  minimum_anomaly_threshold: 20,
  minimum_value_toggled_anomaly: 10,
  billing_cost_basis: 'billed',
  business_units: [],
  products: [],
  env: [],
  owner_values: [],
  project_provisioning: [],
};

/** Customer Id as written from a name or a typed id: lower-cased, spaces removed (spec 000 §5). */
export function normaliseCustomerId(raw: string): string {
  return raw.toLowerCase().replace(/\s+/g, '');
}

/**
 * What is wrong with a Customer Id (or the name it is derived from), or null: letters, hyphen and space only
 * (CUSTOMER_ID_CHARACTERS), at least 6 characters once spaces are removed (CUSTOMER_ID_TOO_SHORT). The web form
 * shows the same message the api would answer.
 */
export function customerIdProblem(raw: string): string | null {
  if (!/^[A-Za-z\s-]*$/.test(raw)) return CUSTOMER_ID_CHARACTERS;
  if (normaliseCustomerId(raw).length < 6) return CUSTOMER_ID_TOO_SHORT;
  return null;
}

/**
 * The Customer Id, or a 400 naming the rule it breaks. Derived from the name when the form sends none. The
 * length rule's spec text names no field, so the api's answer says which ('Customer Id: Must have …').
 */
export function customerIdFrom(raw: string): string {
  const broken = customerIdProblem(raw);
  if (broken === CUSTOMER_ID_TOO_SHORT) throw problem('customer_id', broken);
  if (broken) throw new InputError(broken);
  return normaliseCustomerId(raw);
}

/** 'Billing account Id': spaces removed, comma-separated; order kept (the first is the default account). */
export function parseBillingAccounts(raw: string): string[] {
  return [...new Set(raw.replace(/\s+/g, '').split(',').filter(Boolean))];
}

/** A pasted folder link (…/folders/{id}?usp=sharing, any account path) keeps only the folder id. */
export function driveFolderId(raw: string): string {
  let id = raw.trim();
  const at = id.indexOf('/folders/');
  if (at >= 0) id = id.slice(at + '/folders/'.length);
  id = id.split(/[?#/]/)[0] ?? '';
  if (id !== '' && !/^[A-Za-z0-9_-]+$/.test(id)) throw problem('drive_id', 'not a drive folder id or folder link');
  return id;
}

const cleanList = (xs: string[]) => [...new Set(xs.map((x) => x.trim()).filter(Boolean))];

function httpUrl(raw: string, field: string): string {
  const s = raw.trim();
  if (s === '') return '';
  try {
    const u = new URL(s);
    if (u.protocol === 'http:' || u.protocol === 'https:') return s;
  } catch {
    // fall through
  }
  throw problem(field, 'must be an http(s) link');
}

function tiers(rows: TierRow[]): TierRow[] {
  const sorted = [...rows].sort((a, b) => a.threshold_spend - b.threshold_spend);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.threshold_spend === sorted[i - 1]!.threshold_spend) {
      throw problem('billing_dashboard_tier_discount', 'two tiers have the same threshold spend');
    }
  }
  return sorted;
}

function templates(list: unknown[]): unknown[] {
  const names = list.map((t) => String((t as { template_name?: unknown }).template_name ?? '').trim());
  if (names.some((n) => n === '')) throw problem('project_provisioning', customerRequired('template_name'));
  if (new Set(names).size !== names.length) throw problem('project_provisioning', 'template names must be unique');
  return list;
}

/**
 * Applies the form's input over `base` (the defaults on create, the stored customer on update) and checks
 * every rule. Omitted fields keep `base`'s value, except that the features a change makes impossible are
 * cleared (no service account → no Inventory / System health; a dashboard type drops the other types' data).
 */
export function resolveCustomer(input: CustomerInput, base: CustomerRecord): CustomerRecord {
  const pick = <K extends keyof CustomerRecord & keyof CustomerInput>(k: K) =>
    (input[k] === undefined ? base[k] : input[k]) as CustomerRecord[K];

  const customer_name = (input.customer_name ?? base.customer_name).trim();
  if (customer_name === '') throw required('customer_name');
  const entity = (input.entity ?? base.entity ?? '').trim();
  if (entity === '') throw required('entity');
  const billing_account_ids = input.billing_account_id === undefined ? base.billing_account_ids : parseBillingAccounts(input.billing_account_id);
  if (billing_account_ids.length === 0) throw required('billing_account_id');

  const billing_currency = pick('billing_currency');
  if (!(CURRENCIES as readonly string[]).includes(billing_currency)) throw new InputError(`Currency must be one of ${CURRENCIES.join(', ')}`);

  const asked = pick('billing_dashboard_type');
  const billing_dashboard_type = DASHBOARD_TYPE_ALIASES[asked] ?? asked;
  let billing_dashboard_set_discount: number | null = null;
  let billing_dashboard_tier_discount: TierRow[] = [];
  if (billing_dashboard_type === 'Set Discount') {
    billing_dashboard_set_discount = pick('billing_dashboard_set_discount');
    if (billing_dashboard_set_discount === null || billing_dashboard_set_discount === undefined) throw required('billing_dashboard_set_discount');
  } else if (billing_dashboard_type === 'Tier Discount') {
    billing_dashboard_tier_discount = tiers(pick('billing_dashboard_tier_discount'));
    if (billing_dashboard_tier_discount.length === 0) throw required('billing_dashboard_tier_discount');
  }

  const gcp_service_account = pick('gcp_service_account');
  let service_account_email = '';
  let inventory = false;
  let system_health_dashboard = false;
  if (gcp_service_account) {
    service_account_email = pick('service_account_email').trim().toLowerCase();
    if (service_account_email === '') throw required('service_account_email');
    if (!isEmail(service_account_email)) throw problem('service_account_email', EMAIL_NOT_VALID);
    inventory = pick('inventory');
    system_health_dashboard = pick('system_health_dashboard');
  } else if (input.inventory === true || input.system_health_dashboard === true) {
    throw new InputError('Inventory and System health need a Service Account');
  }

  const workspace_license = pick('workspace_license');
  const domain_name = pick('domain_name').trim().toLowerCase();
  if (domain_name !== '' && !/^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/.test(domain_name)) {
    throw problem('domain_name', 'not a domain name');
  }
  if (workspace_license && domain_name === '') throw required('domain_name');

  return {
    customer_id: base.customer_id,
    customer_name,
    entity,
    billing_account_ids,
    billing_currency,
    billing_dashboard_type,
    billing_dashboard_set_discount,
    billing_dashboard_tier_discount,
    support_request: pick('support_request'),
    billing_viewer: pick('billing_viewer'),
    gcp_service_account,
    service_account_email,
    inventory,
    system_health_dashboard,
    grafana_external_link: httpUrl(pick('grafana_external_link'), 'grafana_external_link'),
    documentation: pick('documentation'),
    drive_id: input.drive_id === undefined ? base.drive_id : driveFolderId(input.drive_id),
    workspace_license,
    domain_name,
    anomaly_detection: pick('anomaly_detection'),
    minimum_anomaly_threshold: pick('minimum_anomaly_threshold'),
    minimum_value_toggled_anomaly: pick('minimum_value_toggled_anomaly'),
    billing_cost_basis: pick('billing_cost_basis'),
    business_units: cleanList(pick('business_units')),
    products: cleanList(pick('products')),
    env: cleanList(pick('env')),
    owner_values: cleanList(pick('owner_values')),
    project_provisioning: templates(pick('project_provisioning')),
  };
}

/** The base a new customer's input is applied over. */
export function newCustomerBase(customer_id: string): CustomerRecord {
  return { customer_id, customer_name: '', entity: null, billing_account_ids: [], ...CUSTOMER_DEFAULTS };
}
