/** Text or not: the UTF-8 validator against Node's own decoder, and the first-kilobytes sniff. */
import t from 'tap';
import { firstInvalidUtf8, sniffText } from './ingest-text.ts';

const bytes = (...b: number[]) => Buffer.from(b);

t.test('firstInvalidUtf8 agrees with a fatal TextDecoder, and finds the offset', async (t) => {
  const cases: [string, Buffer, { offset: number; truncated: boolean } | null][] = [
    ['ASCII and accents', Buffer.from('Café Déjà vu, 東京, 😀'), null],
    ['Latin-1 é', bytes(0x43, 0x61, 0x66, 0xe9, 0x0a), { offset: 3, truncated: false }],
    ['overlong slash', bytes(0x41, 0xc0, 0xaf), { offset: 1, truncated: false }],
    ['overlong 3 bytes', bytes(0xe0, 0x80, 0xaf), { offset: 0, truncated: false }],
    ['UTF-16 surrogate as UTF-8', bytes(0xed, 0xa0, 0x80), { offset: 0, truncated: false }],
    ['above U+10FFFF', bytes(0xf4, 0x90, 0x80, 0x80), { offset: 0, truncated: false }],
    ['lone continuation', bytes(0x61, 0x80), { offset: 1, truncated: false }],
    ['cut at the end', bytes(0x61, 0xe2, 0x82), { offset: 1, truncated: true }],
  ];
  for (const [name, buf, want] of cases) {
    t.same(firstInvalidUtf8(buf), want, name);
    let decoderSays = true;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(buf);
    } catch {
      decoderSays = false;
    }
    t.equal(want === null, decoderSays, `${name}: as TextDecoder decides`);
  }
});

t.test('sniffText: binary, not UTF-8, UTF-16 with a BOM', async (t) => {
  t.equal(sniffText(Buffer.from('a,b\n1,2\n'), true), null);
  t.same(sniffText(Buffer.alloc(8192), false), { line: 1, reason: 'the file is binary, not CSV text (a NUL byte on line 1)' });
  t.same(sniffText(Buffer.from('a,b\n1,\u00002\n'), true), { line: 2, reason: 'the file is binary, not CSV text (a NUL byte on line 2)' });
  t.match(sniffText(Buffer.from('a,b\nx\u0001\u0002\u0003\u0004\n'), true), { line: 2, reason: /control characters on line 2/ });
  t.match(sniffText(Buffer.concat([Buffer.from('a\nb\n'), bytes(0xe9, 0x0a)]), true), { line: 3, reason: /byte 0xE9 on line 3/ });
  // A character cut by the end of the sniffed bytes is not an error when the file goes on.
  t.equal(sniffText(Buffer.concat([Buffer.from('a\n'), bytes(0xe2, 0x82)]), false), null);
  t.match(sniffText(Buffer.concat([Buffer.from('a\n'), bytes(0xe2, 0x82)]), true), { line: 2, reason: /ends inside a character/ });
  const le = Buffer.concat([bytes(0xff, 0xfe), Buffer.from('a,b\nCafé,1\n', 'utf16le')]);
  t.equal(sniffText(le, true), null, 'UTF-16LE with a BOM');
  t.equal(sniffText(Buffer.from(le).swap16(), true), null, 'UTF-16BE with a BOM');
  t.match(sniffText(Buffer.concat([bytes(0xff, 0xfe), Buffer.from('a\n', 'utf16le'), bytes(0x00, 0xd8, 0x41, 0x00)]), true), { line: 2, reason: /unpaired surrogate/ });
});
