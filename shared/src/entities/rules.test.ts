/** The entity form's pure rules (spec 001 §5): the id from the name, the allowed e-mail domains. */
import t from 'tap';
import { entityIdFrom, parseEmailDomains } from './rules.ts';

t.test('entities', async (t) => {
  t.equal(entityIdFrom('Nordic Group'), 'nordic-group');
  t.equal(entityIdFrom('Ærø & Søn A/S'), 'aero-son-a-s');
  t.equal(entityIdFrom('!!!'), 'entity');
  t.equal(parseEmailDomains('@A.example\n b.example, a.example'), 'a.example\nb.example');
  t.equal(parseEmailDomains('  '), '');
  t.throws(() => parseEmailDomains('localhost'), { message: 'email_domain_allowed: not a domain name: localhost' });
});
