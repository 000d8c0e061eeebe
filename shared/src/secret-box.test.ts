import t from 'tap';
import { createSecretBox, SecretBoxError } from './secret-box.ts';

const KEY = 'k'.repeat(16) + 'test-key-0123456789abcdef';
const OTHER = 'another-configured-key-0123456789abcdef';

t.test('seals and opens; every seal is different (random IV)', async (t) => {
  const box = createSecretBox(KEY);
  const a = box.seal('s3cret-pässword', 'acme-corp');
  const b = box.seal('s3cret-pässword', 'acme-corp');
  t.not(a, b);
  t.match(a, /^v1\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/, 'versioned format');
  t.notMatch(a, /s3cret/);
  t.equal(box.open(a, 'acme-corp'), 's3cret-pässword');
  t.equal(box.open(box.seal('')), '', 'the empty string round-trips');
});

t.test('tampering is detected', async (t) => {
  const box = createSecretBox(KEY);
  const sealed = box.seal('password-1', 'acme-corp');
  const parts = sealed.split('.');
  const flip = (s: string) => {
    const bytes = Buffer.from(s, 'base64url');
    bytes[0] ^= 1;
    return bytes.toString('base64url');
  };
  for (const i of [2, 3, 4]) {
    const altered = parts.map((p, j) => (j === i ? flip(p) : p)).join('.');
    t.throws(() => box.open(altered, 'acme-corp'), SecretBoxError, `part ${i} altered`);
  }
  t.throws(() => box.open(sealed, 'other-customer'), new SecretBoxError('sealed secret does not authenticate'), 'other associated data');
  t.throws(() => box.open(sealed), SecretBoxError, 'missing associated data');
  t.throws(() => box.open('password-1'), new SecretBoxError('not a sealed secret'));
  t.throws(() => box.open(`v2${sealed.slice(2)}`), new SecretBoxError('not a sealed secret'));
});

t.test('a wrong key does not open; a rotated key still does', async (t) => {
  const old = createSecretBox(KEY);
  const sealed = old.seal('password-1');
  t.throws(() => createSecretBox(OTHER).open(sealed), new SecretBoxError('sealed with a key that is not configured'));
  // same key id forged onto a box with another key: GCM still refuses
  const forged = createSecretBox(OTHER).seal('x').split('.');
  const swapped = [forged[0], sealed.split('.')[1], ...forged.slice(2)].join('.');
  t.throws(() => old.open(swapped), new SecretBoxError('sealed secret does not authenticate'));

  const rotated = createSecretBox(OTHER, [KEY]);
  t.equal(rotated.open(sealed), 'password-1');
  t.ok(rotated.needsReseal(sealed));
  t.notOk(rotated.needsReseal(rotated.seal('password-1')));
});

t.test('short keys are refused', async (t) => {
  t.throws(() => createSecretBox('short'), new SecretBoxError('secret key must be at least 32 characters'));
});
