import t from 'tap';
import { PASSWORDS_DIFFER, validateNewPassword } from './validate-password.ts';

t.test('the invitation password follows the login rule and is typed twice', async (t) => {
  t.same(validateNewPassword('', ''), { password: 'This field is required', confirm: 'This field is required' });
  t.same(validateNewPassword('short', 'short'), { password: 'Must have at least 6 characters' });
  t.same(validateNewPassword('long-enough', 'long-enoug'), { confirm: PASSWORDS_DIFFER });
  t.same(validateNewPassword('long-enough', 'long-enough'), {});
});
