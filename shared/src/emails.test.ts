/** The e-mail rules of the administration forms (spec 001 §5): one address, a comma-separated list. */
import t from 'tap';
import { parseEmail, parseEmailList } from './emails.ts';

t.test('e-mails', async (t) => {
  t.same(parseEmailList(' A@B.example , c@d.example,a@b.example,'), ['a@b.example', 'c@d.example']);
  t.throws(() => parseEmailList(''), { message: 'emails: This field is required' });
  t.throws(() => parseEmailList(','), { message: 'Email list is not valid' });
  t.throws(() => parseEmailList('a@b.example c@d.example'), { message: 'Email list is not valid' }, 'spaces separate nothing');
  t.equal(parseEmail(' Bob@X.example '), 'bob@x.example');
  t.throws(() => parseEmail('bob@x'), { message: 'Email is not valid' });
});
