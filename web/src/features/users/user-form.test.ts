import t from 'tap';
import { EMAIL_INVALID, EMAIL_LIST_INVALID, GRANT_AT_LEAST_ONE, existingEmails, parseEmailList, validateNewUsers, validateUpdateUser } from './user-form.ts';

t.test('the e-mail box: comma-separated, trimmed, lower-cased', async (t) => {
  t.same(parseEmailList(' Dana@Zeta.example , ELI@zeta.example,'), ['dana@zeta.example', 'eli@zeta.example']);
});

t.test('New Users rules and messages (spec 001 §5)', async (t) => {
  t.same(validateNewUsers('', '', []), { role: 'This field is required', emails: 'This field is required', customers: GRANT_AT_LEAST_ONE });
  t.equal(GRANT_AT_LEAST_ONE, 'Please grant access to at least one customer');
  t.equal(validateNewUsers('customer', 'a@b.co, c@d', ['acme-corp']).emails, EMAIL_LIST_INVALID);
  t.equal(EMAIL_LIST_INVALID, 'Email list is not valid');
  t.equal(validateNewUsers('boss', 'a@b.co', ['acme-corp']).role, 'This field is required');
  t.same(validateNewUsers('customerViewer', 'a@b.co, c@d.co', ['acme-corp']), {});
});

t.test('Update User rules', async (t) => {
  t.equal(validateUpdateUser('customer', 'not an email', ['x']).emails, EMAIL_INVALID);
  t.equal(EMAIL_INVALID, 'Email is not valid');
  t.equal(validateUpdateUser('customer', 'a@b.co, c@d.co', ['x']).emails, EMAIL_INVALID, 'one e-mail only');
  t.same(validateUpdateUser('admin', 'a@b.co', ['x']), {});
  t.equal(validateUpdateUser('admin', 'a@b.co', []).customers, GRANT_AT_LEAST_ONE);
});

t.test("the api's duplicate detail opens the 'E-mail already exists' dialog", async (t) => {
  t.same(existingEmails('E-mail already exists: a@x.y, b@x.y'), ['a@x.y', 'b@x.y']);
  t.equal(existingEmails('Email list is not valid'), null);
  t.equal(existingEmails(undefined), null);
});
