/** The customer form's pure rules (spec 001 §2.4, §5): the customer id, billing accounts, drive folders, project ids. */
import t from 'tap';
import { customerIdFrom, driveFolderId, parseBillingAccounts } from './rules.ts';
import { parseProjectIds } from './service-script.ts';

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

t.test('project ids', async (t) => {
  t.same(parseProjectIds('proj-one, proj-two ,proj-one'), ['proj-one', 'proj-two']);
  t.same(parseProjectIds(['proj-one,proj-two']), ['proj-one', 'proj-two']);
  t.throws(() => parseProjectIds('1abcdef'), { message: 'Invalid project id(s): 1abcdef' });
  t.throws(() => parseProjectIds('short'), { message: 'Invalid project id(s): short' });
});
