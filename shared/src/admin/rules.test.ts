/** The pure administration rules (spec 001 §2.4, §5): ids, e-mail lists, billing accounts, drive folders, domains. */
import t from 'tap';
import { customerIdFrom, driveFolderId, parseBillingAccounts } from './customer-input.ts';
import { parseEmail, parseEmailList } from './emails.ts';
import { entityIdFrom, parseEmailDomains } from './entity-input.ts';
import { parseProjectIds } from './service-script.ts';
import { entityNames } from './users.ts';

t.test('customer id', async (t) => {
  t.equal(customerIdFrom('Acme Corp'), 'acmecorp');
  t.equal(customerIdFrom('  Big - Co  '), 'big-co');
  t.throws(() => customerIdFrom('Ab Cd'), { message: 'Customer Id: Must have at least 6 characters', statusCode: 400 });
  t.throws(() => customerIdFrom('Acme Corp.'), { message: 'Customer Id may contain only letters, hyphen and space' });
  t.throws(() => customerIdFrom('Åcme Corp'), { message: 'Customer Id may contain only letters, hyphen and space' });
});

t.test('billing accounts and drive folders', async (t) => {
  t.same(parseBillingAccounts(' 01A - 02 ,, 03B,01A- 02 '), ['01A-02', '03B']);
  t.same(parseBillingAccounts(' , '), []);
  t.equal(driveFolderId('https://drive.google.com/drive/folders/1AbC_d-E?usp=sharing'), '1AbC_d-E');
  t.equal(driveFolderId('drive.google.com/drive/u/0/folders/XYZ/'), 'XYZ');
  t.equal(driveFolderId(' 1Plain '), '1Plain');
  t.equal(driveFolderId(''), '');
  const refused = (() => {
    try {
      driveFolderId('not a folder');
    } catch (e) {
      return e as { statusCode?: number };
    }
  })();
  t.equal(refused?.statusCode, 400, 'a value that is neither a folder id nor a folder link is refused');
});

t.test('e-mails', async (t) => {
  t.same(parseEmailList(' A@B.example , c@d.example,a@b.example,'), ['a@b.example', 'c@d.example']);
  t.throws(() => parseEmailList(''), { message: 'emails: This field is required' });
  t.throws(() => parseEmailList(','), { message: 'Email list is not valid' });
  t.throws(() => parseEmailList('a@b.example c@d.example'), { message: 'Email list is not valid' }, 'spaces separate nothing');
  t.equal(parseEmail(' Bob@X.example '), 'bob@x.example');
  t.throws(() => parseEmail('bob@x'), { message: 'Email is not valid' });
});

t.test('entities', async (t) => {
  t.equal(entityIdFrom('Nordic Group'), 'nordic-group');
  t.equal(entityIdFrom('Ærø & Søn A/S'), 'aero-son-a-s');
  t.equal(entityIdFrom('!!!'), 'entity');
  t.equal(parseEmailDomains('@A.example\n b.example, a.example'), 'a.example\nb.example');
  t.equal(parseEmailDomains('  '), '');
  t.throws(() => parseEmailDomains('localhost'), { message: 'email_domain_allowed: not a domain name: localhost' });
  t.same(entityNames([{ entity_name: 'B' }, { entity_name: null }, { entity_name: 'B' }, { entity_name: 'A' }]), ['A', 'B', 'No Entity']);
});

t.test('project ids', async (t) => {
  t.same(parseProjectIds('proj-one, proj-two ,proj-one'), ['proj-one', 'proj-two']);
  t.same(parseProjectIds(['proj-one,proj-two']), ['proj-one', 'proj-two']);
  t.throws(() => parseProjectIds('1abcdef'), { message: 'Invalid project id(s): 1abcdef' });
  t.throws(() => parseProjectIds('short'), { message: 'Invalid project id(s): short' });
});
