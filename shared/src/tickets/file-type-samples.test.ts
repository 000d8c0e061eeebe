/**
 * The browser checks attachments with the server's own content check (shared/src/tickets/file-type.ts) before
 * uploading; these samples pin what it answers, including the edge cases a browser user meets.
 */
import t from 'tap';
import { detectFileType } from './file-type.ts';

const bytes = (...parts: (number[] | string)[]) =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...new TextEncoder().encode(p)] : p)));

/** A minimal zip: one local header naming `entry`, then a central directory header naming it again. */
function zip(entry: string): Uint8Array {
  const name = [...new TextEncoder().encode(entry)];
  const local = [0x50, 0x4b, 0x03, 0x04, ...new Array(22).fill(0), name.length, 0, 0, 0, ...name];
  const central = [0x50, 0x4b, 0x01, 0x02, ...new Array(24).fill(0), name.length, 0, ...new Array(16).fill(0), ...name];
  return bytes(local, central);
}

const bmpHeader = (dib: number) => {
  const b = new Uint8Array(30);
  b.set([0x42, 0x4d]);
  new DataView(b.buffer).setUint32(14, dib, true);
  return b;
};

const SAMPLES: Record<string, Uint8Array> = {
  jpeg: bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10], 'JFIF'),
  png: bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
  bmp: bmpHeader(40),
  'bmp with an unknown header size': bmpHeader(7),
  'text starting with BM': bytes('BM is a text file\n'),
  pdf: bytes('%PDF-1.7\n%âãÏÓ\n'),
  doc: bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]),
  docx: zip('word/document.xml'),
  'zip without word/': zip('xl/workbook.xml'),
  'plain text': bytes('Steps to reproduce\r\n\t1. open\n'),
  'utf-8 text': bytes('Grüße, 東京\n'),
  'text with a NUL': bytes('abc', [0], 'def'),
  'invalid utf-8': bytes([0xc3, 0x28]),
  'windows executable': bytes([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00]),
  empty: new Uint8Array(0),
};

const EXPECTED: Record<keyof typeof SAMPLES, string | null> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  bmp: 'image/bmp',
  'bmp with an unknown header size': null,
  'text starting with BM': 'text/plain',
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'zip without word/': null,
  'plain text': 'text/plain',
  'utf-8 text': 'text/plain',
  'text with a NUL': null,
  'invalid utf-8': null,
  'windows executable': null,
  empty: null,
};

t.test('each sample is recognised by its bytes', async (t) => {
  for (const [name, sample] of Object.entries(SAMPLES)) t.equal(detectFileType(sample), EXPECTED[name], name);
});

t.test('the accepted kinds are recognised', async (t) => {
  t.equal(detectFileType(SAMPLES.docx), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  t.equal(detectFileType(SAMPLES['plain text']), 'text/plain');
  t.equal(detectFileType(SAMPLES['windows executable']), null);
  t.equal(detectFileType(SAMPLES['zip without word/']), null);
});
