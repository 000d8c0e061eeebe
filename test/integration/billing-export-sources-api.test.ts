/**
 * The admin setting of a billing account's AWS or Azure export: admins only, the customer's own accounts only, bad
 * input answered 400 with its field, and the secret sealed (bound to the account) and never answered.
 */
import t from 'tap';
import { secretBoxFromConfig } from '@cc/shared/secrets-key.ts';
import { build, login, bearer } from '../helper.ts';

const ACME_2 = '01FFEE-DDCCBB-AA9988';
const GLOBEX = '02B3C4-D5E6F7-A8B9C0';

t.test('export sources: set, read without the secret, refuse bad input and other tenants, remove', async (t) => {
  const app = await build(t);
  const admin = bearer(await login(app, 'admin@commandcenter.local'));
  const alice = bearer(await login(app, 'alice@acme.example'));
  const put = (account: string, payload: unknown, headers = admin, customer = 'acme-corp') =>
    app.inject({ method: 'PUT', url: `/v2/billing/export-sources/${customer}/${account}`, headers, payload: payload as object });

  const aws = { kind: 'aws-data-exports', settings: { bucket: 'acme-billing', prefix: 'exports', export_name: 'acme-focus', role_arn: 'arn:aws:iam::111122223333:role/cc-billing' }, secret: 'AKIAEXAMPLE:wJalrXUtnFEMI' };
  const saved = await put(ACME_2, aws);
  t.equal(saved.statusCode, 200, saved.body);
  t.match(saved.json(), { billing_account_id: ACME_2, kind: 'aws-data-exports', has_secret: true, settings: aws.settings });
  t.notMatch(saved.body, /wJalrXUtnFEMI|AKIAEXAMPLE/, 'the secret is not answered');
  const row = (await app.env.pool.query(`SELECT secret_sealed FROM billing_export_source WHERE billing_account_id = $1`, [ACME_2])).rows[0];
  t.notMatch(row.secret_sealed, /wJalrXUtnFEMI/, 'stored sealed');
  t.equal(secretBoxFromConfig(app.env.config).open(row.secret_sealed, ACME_2), aws.secret, 'and opens for this account');

  const kept = await put(ACME_2, { kind: aws.kind, settings: aws.settings });
  t.equal(kept.json().has_secret, true, 'no secret sent: the stored one stays');
  const list = await app.inject({ url: '/v2/billing/export-sources/acme-corp', headers: admin });
  t.equal(list.statusCode, 200);
  t.match(list.json(), { sources: [{ billing_account_id: ACME_2, has_secret: true }] });
  t.notMatch(list.body, /wJalrXUtnFEMI/);

  const bad = [
    [{ kind: 'aws-data-exports', settings: { export_name: 'x' } }, 'settings.bucket: This field is required for aws-data-exports'],
    [{ kind: 'aws-data-exports', settings: { bucket: 'b-1', export_name: 'x' }, secret: 'no-colon' }, 'secret: the AWS secret is ACCESS_KEY_ID:SECRET_ACCESS_KEY'],
    [{ kind: 'azure-cost-exports', settings: { storage_account: 'acct', container: 'c-1', export_name: 'x', bucket: 'b-1' } }, 'settings.bucket: not a setting of azure-cost-exports'],
    [{ kind: 'gcs', settings: {} }, /kind/],
    [{ kind: 'aws-data-exports', settings: { bucket: 'B!', export_name: 'x' } }, /bucket/],
  ] as const;
  for (const [payload, detail] of bad) {
    const res = await put(ACME_2, payload);
    t.equal(res.statusCode, 400, JSON.stringify(payload));
    t.match(res.json(), { detail });
  }
  t.equal((await put(GLOBEX, aws)).statusCode, 404, "another customer's account is not Acme's");
  t.equal((await put(ACME_2, aws, alice)).statusCode, 403, 'admins only');
  t.equal((await app.inject({ url: '/v2/billing/export-sources/acme-corp', headers: alice })).statusCode, 403);

  const gone = await app.inject({ method: 'DELETE', url: `/v2/billing/export-sources/acme-corp/${ACME_2}`, headers: admin });
  t.equal(gone.statusCode, 204);
  t.same((await app.inject({ url: '/v2/billing/export-sources/acme-corp', headers: admin })).json(), { sources: [] });
});
