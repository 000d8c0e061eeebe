/**
 * The validators that hold the vendor fakes to the vendors' own documents (test/fakes/specs/): each kind of request
 * a document does not allow is refused with the document's words and recorded as a violation, and an answer outside
 * the document's shapes is caught too.
 */
import t from 'tap';
import { discovery } from '../fakes/discovery-validator.ts';
import { openApi } from '../fakes/openapi-validator.ts';
import { cloudQuotasProto } from '../fakes/proto-validator.ts';
import { takeViolations } from '../fakes/spec-violations.ts';

const q = (s = '') => new URLSearchParams(s);

t.test('a Google discovery document: method, path, query, body and answer', async (t) => {
  const budgets = discovery('billingbudgets.v1.json');
  const ok = budgets.request('POST', '/v1/billingAccounts/01A2B3-C4D5E6-F7A8B9/budgets', q('$alt=json;enum-encoding=int'), {
    displayName: 'x',
    budgetFilter: { projects: ['projects/1'], calendarPeriod: 1, creditTypesTreatment: 1 },
    amount: { specifiedAmount: { currencyCode: 'USD', units: '10', nanos: 0 } },
  });
  t.equal(ok.method.id, 'billingbudgets.billingAccounts.budgets.create');
  t.same(takeViolations(), [], 'a request as the official client sends it passes');

  const refusals: [string, () => unknown, RegExp][] = [
    ['an enum value the document does not list', () => budgets.request('POST', '/v1/billingAccounts/A/budgets', q(), { amount: { specifiedAmount: {} }, budgetFilter: { calendarPeriod: 'WEEK' } }), /"WEEK" is not one of CALENDAR_PERIOD_UNSPECIFIED, MONTH, QUARTER, YEAR/],
    ['a field the schema does not have', () => budgets.request('POST', '/v1/billingAccounts/A/budgets', q(), { amount: { specifiedAmount: {} }, owner: 'x' }), /field "owner" is not a field of GoogleCloudBillingBudgetsV1Budget/],
    ['a field the description calls Required', () => budgets.request('POST', '/v1/billingAccounts/A/budgets', q(), { displayName: 'x' }), /required field "amount" is missing\. The document says: "Required\. Budgeted amount\."/],
    ['a wrong type', () => budgets.request('POST', '/v1/billingAccounts/A/budgets', q(), { amount: { specifiedAmount: { nanos: 'many' } } }), /"many" is not an integer \(int32\)/],
    ['an unknown query parameter', () => budgets.request('GET', '/v1/billingAccounts/A/budgets', q('filter=x'), null), /query parameter "filter" is not a parameter of this method/],
    ['the wrong verb', () => budgets.request('DELETE', '/v1/billingAccounts/A/budgets', q(), null), /takes POST billingbudgets\.billingAccounts\.budgets\.create|not DELETE/],
    ['a path the document does not have', () => discovery('licensing.v1.json').request('GET', '/apps/licensing/v1/users', q(), null), /no method of the document has this path/],
    ['a path parameter outside its pattern', () => discovery('cloudbilling.v1.json').request('GET', '/v1/billingAccounts', q(), null), /no method|does not match/],
  ];
  for (const [what, call, wording] of refusals) {
    t.throws(call, { name: 'SpecViolation', message: wording }, what);
    t.equal(takeViolations().length, 1, `${what}: recorded`);
  }

  const list = discovery('licensing.v1.json');
  const matched = list.request('GET', '/apps/licensing/v1/product/Google-Apps/users', q('customerId=C01234567&maxResults=1000'), null);
  t.throws(() => list.response(matched, { items: [{ userId: 'a', seats: 3 }] }), { message: /field "seats" is not a field of LicenseAssignment/ }, 'an answer outside the document is caught');
  t.equal(takeViolations().length, 1);
});

t.test('an OpenAPI document (Jira): closed bodies, required fields, types, operations', async (t) => {
  const jira = openApi('jira-platform.v3.json');
  jira.request('POST', '/rest/api/3/comment/list', q('expand=properties'), { ids: [1, 2] });
  t.throws(() => jira.request('POST', '/rest/api/3/comment/list', q(), {}), { message: /required field "ids" is missing\. The document says: "The list of comment IDs\. A maximum of 1000 IDs can be specified\."/ });
  t.throws(() => jira.request('GET', '/rest/api/3/comment/list', q(), undefined), { message: /takes POST, not GET/ });
  t.throws(() => jira.request('GET', '/rest/api/3/issue/MSP-1', q('fields=summary&properties2=x'), undefined), { message: /query parameter "properties2" is not a parameter of this operation/ });
  t.throws(() => jira.request('POST', '/rest/api/3/issue/MSP-1/transitions', q(), { transition: { id: 5 } }), { message: /5 is not a string/ });
  t.equal(takeViolations().length, 4);
});

t.test('a proto (Cloud Quotas): the HTTP rule, query fields and the body message', async (t) => {
  const quotas = cloudQuotasProto();
  const body = { service: 'compute.googleapis.com', quotaId: 'CPUS-per-project-region', quotaConfig: { preferredValue: '24' }, dimensions: { region: 'europe-west1' } };
  quotas.request('POST', '/v1/projects/p/locations/global/quotaPreferences', q('quotaPreferenceId=a&$alt=json;enum-encoding=int'), body);
  t.throws(() => quotas.request('POST', '/v1/projects/p/quotaPreferences', q(), body), { message: /no method of the proto has this verb and path/ });
  t.throws(() => quotas.request('POST', '/v1/projects/p/locations/global/quotaPreferences', q('preferenceId=a'), body), { message: /query parameter "preferenceId" is not a field of CreateQuotaPreferenceRequest/ });
  t.throws(() => quotas.request('POST', '/v1/projects/p/locations/global/quotaPreferences', q(), { ...body, quotaConfig: { preferredValue: 'lots' } }), { message: /"lots" is not a int64/ });
  t.equal(takeViolations().length, 3);
});
