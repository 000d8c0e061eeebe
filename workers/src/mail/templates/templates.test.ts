import t from 'tap';
import { alertNotice, alertScope } from './alert-notice.ts';
import { anomalyNotice } from './anomaly-notice.ts';
import { screenLink } from './layout.ts';

const notice = {
  id: 1,
  alert_id: 7,
  customer_id: 'evil-corp',
  customer_name: 'Evil <b>Corp</b> & Co',
  month: '2026-11',
  billing_account_id: 'AAA-BBB',
  group_by: 'resource_label' as const,
  label_key: 'env',
  label_value: '<prod>',
  spend: '12345.60',
  quota: '10000.00',
  currency: 'EUR',
  evaluated_day: '2026-11-20',
  cost_basis: 'amortised' as const,
  recipients: ['a@x.example'],
};

t.test('alert notice: figures, scope, link; names are escaped in HTML only', async (t) => {
  const mail = alertNotice(notice, 'https://cc.example/');
  t.equal(mail.subject, 'Evil <b>Corp</b> & Co: Month-To-Date spend 12,345.60 EUR exceeds the alert quota of 10,000.00 EUR');
  t.match(mail.text, /of Resource Label env = <prod> on billing account AAA-BBB is 12,345\.60 EUR/);
  t.match(mail.text, /https:\/\/cc\.example\/billing\/alerts/);
  t.match(mail.text, /^Cost basis: Amortised$/m, 'says which basis the spend was judged on');
  t.notMatch(mail.html, /<b>Corp<\/b>/);
  t.match(mail.html, /Evil &lt;b&gt;Corp&lt;\/b&gt; &amp; Co/);
  t.match(mail.html, /env = &lt;prod&gt;/);
  t.match(mail.html, /href="https:\/\/cc\.example\/billing\/alerts\?customer=[^"&]+&amp;billing_account=AAA-BBB"/);
  t.equal(alertScope({ group_by: 'service', label_key: '', label_value: '' }), 'Total');
  t.equal(alertScope({ group_by: 'project_label', label_key: 'team', label_value: 'web' }), 'Project Label team = web');
});

t.test('anomaly notice lists every anomaly; zero mean reads as new spend', async (t) => {
  const base = { customer_id: 'c', customer_name: 'Acme', billing_account_id: 'B', date: '2026-10-30', currency: 'EUR', cost_basis: 'billed' as const, recipients: [] };
  const mail = anomalyNotice('Acme', 'B', '2026-10-30', [
    { ...base, id: '1', project_id: 'p1', service: 'Compute', mean_cost: '100.00', to_date_cost: '150.00', delta_from_mean_cost_perc: '50.00' },
    { ...base, id: '2', project_id: 'p2', service: '<Storage>', mean_cost: '0.00', to_date_cost: '20.00', delta_from_mean_cost_perc: null },
  ], 'http://cc.test');
  t.equal(mail.subject, 'Acme: 2 spend anomalies on 2026-10-30');
  t.match(mail.text, /- p1 \/ Compute: latest daily spend 150\.00 EUR, mean daily spend 100\.00 EUR \(\+50\.00%\)/);
  t.match(mail.text, /- p2 \/ <Storage>: latest daily spend 20\.00 EUR, mean daily spend 0\.00 EUR \(new spend\)/);
  t.match(mail.html, /<td>&lt;Storage&gt;<\/td>/);
  t.match(mail.text, /^Cost basis: Billed$/m, 'says which basis the spend was judged on');
  t.match(mail.html, '<p>Cost basis: Billed</p>');
  t.match(mail.text, 'http://cc.test/anomalydetection?customer=c&billing_account=B', 'the link names the customer and account');
  t.match(mail.html, 'href="http://cc.test/anomalydetection?customer=c&amp;billing_account=B"');
  t.equal(screenLink('http://x/', '/a'), 'http://x/a');
  t.equal(screenLink('http://x', '/a', { customerId: 'a b&c', billingAccountId: 'X:1' }), 'http://x/a?customer=a+b%26c&billing_account=X%3A1');
});

t.test('anomaly notice on the amortised basis says so, as the alert notice does', async (t) => {
  const a = { customer_id: 'c', customer_name: 'Acme', billing_account_id: 'B', date: '2026-10-30', currency: 'USD', cost_basis: 'amortised' as const, recipients: [] };
  const mail = anomalyNotice('Acme', 'B', '2026-10-30', [{ ...a, id: '1', project_id: 'p1', service: 'Compute', mean_cost: '10.00', to_date_cost: '30.00', delta_from_mean_cost_perc: '200.00' }], 'http://cc.test');
  t.equal(mail.subject, 'Acme: 1 spend anomaly on 2026-10-30');
  t.match(mail.text, /^Cost basis: Amortised$/m);
  t.notMatch(mail.text, /Billed/);
  t.match(mail.html, '<p>Cost basis: Amortised</p>');
});
