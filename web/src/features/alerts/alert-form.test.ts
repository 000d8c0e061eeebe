import t from 'tap';
import { EMPTY_ALERT_FORM, fieldErrorFromDetail, toAlertInput, validateAlert } from './alert-form.ts';

t.test('spec 001 §5: group by and quota required; labels required for a label grouping', async (t) => {
  t.same(validateAlert(EMPTY_ALERT_FORM), { group_by: 'This field is required', quota: 'This field is required' });
  t.same(validateAlert({ ...EMPTY_ALERT_FORM, group_by: 'service', quota: '10' }), {}, 'Total needs no labels');
  t.same(validateAlert({ ...EMPTY_ALERT_FORM, group_by: 'resource_label', quota: '10' }), {
    label_key: 'This field is required',
    label_value: 'This field is required',
  });
  t.same(validateAlert({ group_by: 'project_label', label_key: 'team', label_value: 'web', quota: '0' }), {}, 'quota 0 is allowed');
});

t.test('quota numeric, minimum 0', async (t) => {
  const quota = (q: string) => validateAlert({ group_by: 'service', label_key: '', label_value: '', quota: q }).quota;
  t.equal(quota('-5'), 'number must be 0 or greater');
  t.equal(quota('-0.5'), 'number must be 0 or greater');
  t.equal(quota('abc'), 'must be a number');
  t.equal(quota('1e3'), 'must be a number', 'no exponents');
  t.equal(quota('12.'), 'must be a number');
  t.equal(quota(' 1000.50 '), undefined);
});

t.test('the body: Total stores blank labels', async (t) => {
  t.same(toAlertInput({ group_by: 'service', label_key: 'team', label_value: 'web', quota: ' 1000 ' }), {
    group_by: 'service',
    label_key: '',
    label_value: '',
    quota: '1000',
  });
  t.same(toAlertInput({ group_by: 'project_label', label_key: 'team', label_value: 'web', quota: '5.25' }), {
    group_by: 'project_label',
    label_key: 'team',
    label_value: 'web',
    quota: '5.25',
  });
});

t.test('the quota goes out as the typed decimal text, exact beyond float precision', async (t) => {
  t.equal(toAlertInput({ group_by: 'service', label_key: '', label_value: '', quota: '123456789012.123456789012' }).quota, '123456789012.123456789012');
});

t.test("the api's '<field>: <message>' lands under the field", async (t) => {
  t.same(fieldErrorFromDetail('quota: number must be 0 or greater'), { quota: 'number must be 0 or greater' });
  t.equal(fieldErrorFromDetail('Customer not found'), null);
  t.equal(fieldErrorFromDetail(undefined), null);
});
